import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../auth/auth.decorator';
import { Clock } from '../../common/clock';
import { Money } from '../../common/money';
import { isUuid } from '../../common/uuid';
import { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { EventBus, Transaction } from '../../database/event-bus';
import { EntityService } from '../../entity';
import { ApiError } from '../../http/api-error';
import {
  CreatePaymentDto,
  PaymentChanged,
  PaymentRecordResponseDto,
  PaymentService,
  toPaymentRecords,
} from '../../payment';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { AccessPolicy } from '../../team';
import { PayShareChargeDto, PayShareDto, TabResponseDto } from './tab.dto';
import { closedEvent, sharePaid, TabLedger } from './tab-ledger';
import { TabRepository } from './tab.repository';
import { AMOUNT } from './tab-split-request';
import { TabViews } from './tab-views';

/**
 * The payments of a tab's shares: the team's record of money it collected,
 * the party's charge from the tab page, and what a share's payment changes
 * (the share paid, the tab closed once nothing is due).
 */
@Injectable()
export class TabPayments {
  constructor(
    private readonly tabs: TabRepository,
    private readonly ledger: TabLedger,
    private readonly tabViews: TabViews,
    private readonly access: AccessPolicy,
    private readonly bus: EventBus,
    private readonly payments: PaymentService,
    private readonly clock: Clock,
    private readonly entities: EntityService,
    private readonly limiter: RateLimitService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    bus.on('payment.changed', (event, tx) => this.heardOfPayment(event, tx));
  }

  /**
   * R114: the team records money it collected for a share (cash, or a
   * transfer to the business's account), with a tip. Under the tab's lock:
   * a share already paid is 409 before anything is written, so two people
   * paying one share at once pay it once.
   */
  async payShareByStaff(
    user: AuthUser,
    uuid: string,
    shareUuid: string,
    dto: PayShareDto,
  ): Promise<TabResponseDto> {
    const found = await this.tabViews.staffTab(user, uuid, 'order.take');
    const tab = await this.bus.transaction(async (tx) => {
      const role = await this.access.requireAccess(
        user,
        'order.take',
        found.businessUuid,
        {},
        tx.manager,
      );
      const tab = await this.ledger.lockTab(tx, found.uuid);
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is closed.', [
          { field: 'tab', message: 'the tab is closed' },
        ]);
      }
      const share = isUuid(shareUuid)
        ? await this.tabs.findShare(tx.manager, tab.uuid, shareUuid.toLowerCase())
        : null;
      if (!share) throw ApiError.notFound('The share does not exist.');
      if (share.status === 'paid') {
        throw ApiError.conflict('The share is already paid.', [
          { field: 'share_uuid', message: 'the share is paid' },
        ]);
      }
      await this.payments.recordSharePayment(
        tx,
        {
          uuid: share.uuid,
          businessUuid: tab.businessUuid,
          amount: share.amount,
          currency: tab.currency,
        },
        dto.method,
        new Money(dto.tip_amount ?? '0').toFixed(2),
        { actor: role, userUuid: user.uuid },
      );
      return (await this.tabs.find(tab.uuid, tx.manager))!;
    });
    return this.tabViews.view(tab, { kind: 'staff' });
  }

  /**
   * R114: the party pays a share from the tab page (the body of an order's
   * charge: USSD, mobile money or a bank transfer, plus `tip_amount`). A
   * share paid, or with a charge still open, is 409 before the provider is
   * asked; the charge confirms itself as an order's does, and the share and
   * the tab follow (see heardOfPayment).
   */
  async payShareByGuest(
    uuid: string,
    token: unknown,
    shareUuid: string,
    dto: PayShareChargeDto,
    ip: string,
  ): Promise<PaymentRecordResponseDto> {
    const tab = await this.tabViews.guestTab(uuid, token);
    await this.limiter.consume(
      'payment-charge-ip',
      ip,
      this.config.rateLimitPaymentPerIpPerMinute,
      60,
    );
    await this.limiter.consume(
      'payment-charge-order',
      tab.uuid,
      this.config.rateLimitPaymentPerOrderPerMinute,
      60,
    );
    const tip = dto.tip_amount ?? '0';
    if (typeof tip !== 'string' || !AMOUNT.test(tip)) {
      throw ApiError.validation([
        { field: 'tip_amount', message: 'must be a non-negative decimal string such as "2.00"' },
      ]);
    }
    if (tab.status === 'closed') {
      throw ApiError.conflict('The tab is closed.', [
        { field: 'tab', message: 'the tab is closed' },
      ]);
    }
    const share = isUuid(shareUuid)
      ? await this.tabs.findShare(this.tabs.manager, tab.uuid, shareUuid.toLowerCase())
      : null;
    if (!share) throw ApiError.notFound('The share does not exist.');
    if (share.status === 'paid') {
      throw ApiError.conflict('The share is already paid.', [
        { field: 'share_uuid', message: 'the share is paid' },
      ]);
    }
    const orderable = await this.entities.findOrderableMenu(tab.menuUuid, []);
    if (!orderable) {
      throw ApiError.unprocessable('The menu of this tab no longer takes payments.', [
        { field: 'menu_uuid', message: 'the menu or its business is no longer public' },
      ]);
    }
    const rounds = await this.tabs.roundsOf([tab.uuid]);
    const email = rounds.find((round) => round.customerEmailAddress)?.customerEmailAddress;
    const { tip_amount: _tip, method, callback_url, ...body } = dto;
    const snapshot = {
      uuid: share.uuid,
      businessUuid: tab.businessUuid,
      amount: share.amount,
      currency: tab.currency,
      tip: new Money(tip).toFixed(2),
      email: email || `tab-${tab.uuid}@guests.invalid`,
      reference: `TAB-${tab.uuid.slice(0, 8).toUpperCase()}-${share.position}`,
    };
    const context = { menu: orderable.menu.extraData, business: orderable.business.extraData };
    const payment =
      method === 'paystack'
        ? await this.payments.openShareCheckout(snapshot, callback_url, context)
        : await this.payments.createShareCharge(snapshot, body as CreatePaymentDto, context);
    const [record] = toPaymentRecords({
      payments: await this.payments
        .ofShares([share.uuid])
        .then((rows) => rows.filter((row) => row.uuid === payment.uuid)),
      refunds: [],
    });
    return record;
  }

  /**
   * A payment of a share changed, in its transaction: the share is paid
   * once its payments (tips aside) reach its amount, and the tab closes by
   * itself when what is paid reaches its total (R113), its rounds paid.
   */
  private async heardOfPayment(event: PaymentChanged, tx: Transaction): Promise<void> {
    if (!event.shareUuid) return;
    const share = await this.tabs.findShareByUuid(tx.manager, event.shareUuid);
    if (!share || share.status !== 'unpaid') return;
    const tab = (await this.tabs.findForUpdate(tx.manager, share.tabUuid))!;
    const payments = await this.payments.ofShares([share.uuid], tx.manager);
    if (sharePaid(payments).lt(share.amount)) return;
    await this.tabs.markSharePaid(tx.manager, share.uuid);
    const money = await this.ledger.money(tx.manager, tab);
    if (tab.status === 'closed' || money.due > 0) return;
    const closed = await this.tabs.setStatus(tx.manager, tab.uuid, {
      status: 'closed',
      closedAt: this.clock.now(),
      closedByRole: 'system',
    });
    await this.tabs.markRoundsPaid(tx.manager, tab.uuid);
    await tx.emit('tab.closed', closedEvent(closed, money));
  }
}
