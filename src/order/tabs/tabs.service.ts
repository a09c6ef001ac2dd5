import { Injectable } from '@nestjs/common';
import { Request, Response } from 'express';
import { AuthUser } from '../../auth/auth.decorator';
import { Clock } from '../../common/clock';
import { EventBus } from '../../database/event-bus';
import { ApiError } from '../../http/api-error';
import { PaymentRecordResponseDto, PaymentService } from '../../payment';
import { AccessPolicy } from '../../team';
import { OrderStreamHub } from '../realtime/order-stream.hub';
import { formatUnits } from './domain/bill-split';
import {
  CloseTabDto,
  PayShareChargeDto,
  PayShareDto,
  SplitTabDto,
  TabResponseDto,
} from './tab.dto';
import { TabStatus } from './tab.entity';
import { closedEvent, TabLedger } from './tab-ledger';
import { TabPayments } from './tab-payments';
import { TabRepository } from './tab.repository';
import { TabSplits } from './tab-split';
import { TabViews } from './tab-views';

const LIST_LIMIT = 200;

/**
 * A table's tab: its views for the team and for the party, splitting its
 * bill into shares (TabSplits), paying them (TabPayments) and closing it.
 * Every change takes the tab's row lock first, so a split, a close and a
 * new round happen one after the other.
 */
@Injectable()
export class TabsService {
  constructor(
    private readonly tabs: TabRepository,
    private readonly ledger: TabLedger,
    private readonly tabViews: TabViews,
    private readonly splits: TabSplits,
    private readonly sharePayments: TabPayments,
    private readonly access: AccessPolicy,
    private readonly bus: EventBus,
    private readonly payments: PaymentService,
    private readonly clock: Clock,
    private readonly hub: OrderStreamHub,
  ) {}

  /** R114: the team records money it collected for a share (see TabPayments). */
  payShareByStaff(
    user: AuthUser,
    uuid: string,
    shareUuid: string,
    dto: PayShareDto,
  ): Promise<TabResponseDto> {
    return this.sharePayments.payShareByStaff(user, uuid, shareUuid, dto);
  }

  /** R114: the party pays a share from the tab page (see TabPayments). */
  payShareByGuest(
    uuid: string,
    token: unknown,
    shareUuid: string,
    dto: PayShareChargeDto,
    ip: string,
  ): Promise<PaymentRecordResponseDto> {
    return this.sharePayments.payShareByGuest(uuid, token, shareUuid, dto, ip);
  }

  async list(
    user: AuthUser,
    businessUuid: string,
    status: TabStatus | undefined,
  ): Promise<TabResponseDto[]> {
    await this.access.requireAccess(user, 'order.read', businessUuid, {
      noPart: 'not_found',
      message: 'The business does not exist.',
    });
    const tabs = await this.tabs.listForBusiness(businessUuid.toLowerCase(), status, LIST_LIMIT);
    const views: TabResponseDto[] = [];
    for (const tab of tabs) views.push(await this.tabViews.view(tab, { kind: 'staff' }));
    return views;
  }

  /** The tab as the team reads it; a tab of a business the caller has no part in is 404. */
  async forStaff(user: AuthUser, uuid: string): Promise<TabResponseDto> {
    const tab = await this.tabViews.staffTab(user, uuid, 'order.read');
    return this.tabViews.view(tab, { kind: 'staff' });
  }

  // R110: the tab token opens its tab only; a wrong or missing one is 404.
  async forGuest(uuid: string, token: unknown): Promise<TabResponseDto> {
    return this.tabViews.view(await this.tabViews.guestTab(uuid, token), { kind: 'guest' });
  }

  /** R110: the party's stream of its tab (the events of its rounds); a wrong token is 404. */
  async streamForGuest(uuid: string, token: unknown, req: Request, res: Response): Promise<void> {
    const tab = await this.tabViews.guestTab(uuid, token);
    this.hub.openForTab(tab.uuid, req, res);
  }

  async splitByStaff(user: AuthUser, uuid: string, dto: SplitTabDto): Promise<TabResponseDto> {
    const tab = await this.tabViews.staffTab(user, uuid, 'order.take');
    return this.splits.split(tab.uuid, dto, { kind: 'staff' });
  }

  async splitByGuest(uuid: string, token: unknown, dto: SplitTabDto): Promise<TabResponseDto> {
    const tab = await this.tabViews.guestTab(uuid, token);
    return this.splits.split(tab.uuid, dto, { kind: 'guest' });
  }

  /**
   * R113: an owner or manager closes a tab with money due, with a reason
   * kept on the tab; with nothing due anyone who takes orders may.
   */
  async close(user: AuthUser, uuid: string, dto: CloseTabDto): Promise<TabResponseDto> {
    const found = await this.tabViews.staffTab(user, uuid, 'order.take');
    const closed = await this.bus.transaction(async (tx) => {
      const tab = await this.ledger.lockTab(tx, found.uuid);
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is already closed.', [
          { field: 'tab', message: 'the tab is closed' },
        ]);
      }
      const money = await this.ledger.money(tx.manager, tab);
      const role = await this.access.requireAccess(
        user,
        'order.take',
        tab.businessUuid,
        {},
        tx.manager,
      );
      const reason = dto.reason?.trim() || null;
      if (money.due > 0) {
        this.access.check(role, 'tab.close_due');
        if (!reason) {
          throw ApiError.unprocessable('Closing a tab with money due needs a reason.', [
            { field: 'reason', message: `the tab still owes ${formatUnits(money.due)}` },
          ]);
        }
      }
      // Closing with money due abandons the open payments of its unpaid shares.
      await this.payments.abandonSharePayments(
        tx,
        money.shares.filter((share) => share.status === 'unpaid').map((share) => share.uuid),
        { actor: role, userUuid: user.uuid },
      );
      const updated = await this.tabs.setStatus(tx.manager, tab.uuid, {
        status: 'closed',
        closedAt: this.clock.now(),
        closedBy: user.uuid,
        closedByRole: role,
        closeReason: money.due > 0 ? reason : null,
      });
      await tx.emit('tab.closed', closedEvent(updated, money));
      return updated;
    });
    return this.tabViews.view(closed, { kind: 'staff' });
  }
}
