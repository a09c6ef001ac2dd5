import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../auth/auth.decorator';
import { isUuid } from '../../common/uuid';
import { Money } from '../../common/money';
import { ApiError } from '../../http/api-error';
import { PaymentService, toPaymentRecords } from '../../payment';
import { AccessPolicy } from '../../team';
import { OrderViews } from '../order-views';
import { formatUnits } from './domain/bill-split';
import { TabResponseDto } from './tab.dto';
import { TabEntity } from './tab.entity';
import { iso, TabLedger } from './tab-ledger';
import { TabRepository } from './tab.repository';
import { TabTokens } from './tab-tokens';

/** Who asks about a tab: a member of its business (with their role) or the party holding its token. */
export type Reader = { kind: 'staff' } | { kind: 'guest' };

/**
 * A tab found for the one who asks (the team by its access, the party by
 * the tab's token; anyone else is 404) and the tab as each of them reads it.
 */
@Injectable()
export class TabViews {
  constructor(
    private readonly tabs: TabRepository,
    private readonly ledger: TabLedger,
    private readonly views: OrderViews,
    private readonly tokens: TabTokens,
    private readonly access: AccessPolicy,
    private readonly payments: PaymentService,
  ) {}

  async staffTab(
    user: AuthUser,
    uuid: string,
    action: 'order.read' | 'order.take',
  ): Promise<TabEntity> {
    const tab = isUuid(uuid) ? await this.tabs.find(uuid.toLowerCase()) : null;
    if (!tab) throw ApiError.notFound('The tab does not exist.');
    await this.access.requireAccess(user, action, tab.businessUuid, {
      noPart: 'not_found',
      message: 'The tab does not exist.',
    });
    return tab;
  }

  async guestTab(uuid: string, token: unknown): Promise<TabEntity> {
    const tab = isUuid(uuid) ? await this.tabs.find(uuid.toLowerCase()) : null;
    if (!tab || !this.tokens.matches(tab.uuid, token)) {
      throw ApiError.notFound('The tab does not exist.');
    }
    return tab;
  }

  async view(tab: TabEntity, reader: Reader): Promise<TabResponseDto> {
    const allRounds = await this.tabs.roundsOf([tab.uuid]);
    const { total, paid, due, shares } = await this.ledger.money(this.tabs.manager, tab);
    const sharePayments = await this.payments.ofShares(shares.map((share) => share.uuid));
    const rounds =
      reader.kind === 'staff'
        ? await this.views.owners(allRounds)
        : await Promise.all(allRounds.map((round) => this.views.guest(round)));
    return {
      uuid: tab.uuid,
      business_uuid: tab.businessUuid,
      menu_uuid: tab.menuUuid,
      table: tab.table,
      status: tab.status,
      rounds,
      total: formatUnits(total),
      paid: formatUnits(paid),
      due: formatUnits(due),
      currency: tab.currency,
      shares: shares.map((share) => {
        const payments = sharePayments.filter((payment) => payment.shareUuid === share.uuid);
        return {
          uuid: share.uuid,
          amount: share.amount,
          tip: payments
            .filter((payment) => payment.status === 'paid')
            .reduce((sum, payment) => sum.plus(payment.tipAmount), new Money(0))
            .toFixed(2),
          status: share.status,
          split_by: share.splitBy,
          lines: share.lines,
          payments: toPaymentRecords({ payments, refunds: [] }),
        };
      }),
      opened_at: iso(tab.openedAt)!,
      closed_at: iso(tab.closedAt),
      close_reason: tab.closeReason,
      tab_token: this.tokens.tokenFor(tab.uuid),
    };
  }
}
