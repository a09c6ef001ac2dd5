import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../auth/auth.decorator';
import { EventBus } from '../../database/event-bus';
import { ApiError } from '../../http/api-error';
import { isUuid } from '../../common/uuid';
import { AccessPolicy } from '../../team';
import { OrderViews } from '../order-views';
import { OrderRepository } from '../order.repository';
import { OrderEntity } from '../entities';
import {
  formatUnits,
  ItemShare,
  splitByAmounts,
  splitByItems,
  splitEqually,
  SplitLine,
  toUnits,
} from './domain/bill-split';
import {
  CloseTabDto,
  PayShareChargeDto,
  PayShareDto,
  SplitTabDto,
  TabResponseDto,
} from './tab.dto';
import { Clock } from '../../common/clock';
import { Money } from '../../common/money';
import {
  CreatePaymentDto,
  PaymentChanged,
  PaymentRecordResponseDto,
  PaymentRow,
  PaymentService,
  toPaymentRecords,
} from '../../payment';
import { EntityService } from '../../entity';
import { Request, Response } from 'express';
import { OrderStreamHub } from '../realtime/order-stream.hub';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { Transaction } from '../../database/event-bus';
import { TabEntity, TabShareEntity, TabShareLine, TabStatus } from './tab.entity';
import { NewShare, TabRepository } from './tab.repository';
import { TabTokens } from './tab-tokens';

const MAX_PARTS = 50;
const LIST_LIMIT = 200;
/** Rounds that do not count toward the bill. */
const ENDED_UNPAID = new Set(['cancelled', 'rejected']);

import { TabClosed } from './tab-events';

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** The split body read into the domain's terms; a malformed body is 400 naming its field. */
function readSplit(
  dto: SplitTabDto,
):
  | { by: 'equal'; parts: number }
  | { by: 'amount'; amounts: number[] }
  | { by: 'items'; shares: Array<{ lines: TabShareLine[] }> } {
  const fault = (field: string, message: string) =>
    ApiError.validation([{ field, message }], `${field} ${message}`);
  if (dto.by === 'equal') {
    const parts = dto.parts;
    if (typeof parts !== 'number' || !Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) {
      throw fault('parts', `must be a whole number from 1 to ${MAX_PARTS}`);
    }
    return { by: 'equal', parts };
  }
  if (dto.by === 'amount') {
    const amounts = dto.amounts;
    if (!Array.isArray(amounts) || amounts.length === 0 || amounts.length > MAX_PARTS) {
      throw fault('amounts', `must list 1 to ${MAX_PARTS} amounts`);
    }
    amounts.forEach((amount, index) => {
      if (typeof amount !== 'string' || !AMOUNT.test(amount)) {
        throw fault(`amounts[${index}]`, 'must be a non-negative decimal string such as "12.00"');
      }
    });
    return { by: 'amount', amounts: (amounts as string[]).map(toUnits) };
  }
  const shares = dto.shares;
  if (!Array.isArray(shares) || shares.length === 0 || shares.length > MAX_PARTS) {
    throw fault('shares', `must list 1 to ${MAX_PARTS} shares`);
  }
  return {
    by: 'items',
    shares: shares.map((share: unknown, index) => {
      const lines = (share as { lines?: unknown })?.lines;
      if (!Array.isArray(lines) || lines.length === 0 || lines.length > 1000) {
        throw fault(`shares[${index}].lines`, 'must list the lines the share pays');
      }
      return {
        lines: lines.map((line: unknown, at) => {
          const { order_uuid, line_uuid, quantity } = (line ?? {}) as Record<string, unknown>;
          if (
            !isUuid(order_uuid) ||
            !isUuid(line_uuid) ||
            typeof quantity !== 'number' ||
            !Number.isInteger(quantity) ||
            quantity < 1
          ) {
            throw fault(
              `shares[${index}].lines[${at}]`,
              'must be {order_uuid, line_uuid, quantity} with a whole quantity of at least 1',
            );
          }
          return {
            order_uuid: order_uuid.toLowerCase(),
            line_uuid: line_uuid.toLowerCase(),
            quantity,
          };
        }),
      };
    }),
  };
}

/** Who asks about a tab: a member of its business (with their role) or the party holding its token. */
type Reader = { kind: 'staff' } | { kind: 'guest' };

/**
 * A table's tab: its views for the team and for the party, splitting its
 * bill into shares, and closing it. Every change takes the tab's row lock
 * first, so a split, a close and a new round happen one after the other.
 */
@Injectable()
export class TabsService {
  constructor(
    private readonly tabs: TabRepository,
    private readonly orders: OrderRepository,
    private readonly views: OrderViews,
    private readonly tokens: TabTokens,
    private readonly access: AccessPolicy,
    private readonly bus: EventBus,
    private readonly payments: PaymentService,
    private readonly clock: Clock,
    private readonly entities: EntityService,
    private readonly limiter: RateLimitService,
    @InjectConfig() private readonly config: AppConfig,
    private readonly hub: OrderStreamHub,
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
    const found = await this.staffTab(user, uuid, 'order.take');
    const tab = await this.bus.transaction(async (tx) => {
      const role = await this.access.requireAccess(
        user,
        'order.take',
        found.businessUuid,
        {},
        tx.manager,
      );
      const tab = await this.lockTab(tx, found.uuid);
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
    return this.view(tab, { kind: 'staff' });
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
    const tab = await this.guestTab(uuid, token);
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
    const money = await this.money(tx.manager, tab);
    if (tab.status === 'closed' || money.due > 0) return;
    const closed = await this.tabs.setStatus(tx.manager, tab.uuid, {
      status: 'closed',
      closedAt: this.clock.now(),
      closedByRole: 'system',
    });
    await this.tabs.markRoundsPaid(tx.manager, tab.uuid);
    await tx.emit('tab.closed', closedEvent(closed, money));
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
    for (const tab of tabs) views.push(await this.view(tab, { kind: 'staff' }));
    return views;
  }

  /** The tab as the team reads it; a tab of a business the caller has no part in is 404. */
  async forStaff(user: AuthUser, uuid: string): Promise<TabResponseDto> {
    const tab = await this.staffTab(user, uuid, 'order.read');
    return this.view(tab, { kind: 'staff' });
  }

  // R110: the tab token opens its tab only; a wrong or missing one is 404.
  async forGuest(uuid: string, token: unknown): Promise<TabResponseDto> {
    return this.view(await this.guestTab(uuid, token), { kind: 'guest' });
  }

  /** R110: the party's stream of its tab (the events of its rounds); a wrong token is 404. */
  async streamForGuest(uuid: string, token: unknown, req: Request, res: Response): Promise<void> {
    const tab = await this.guestTab(uuid, token);
    this.hub.openForTab(tab.uuid, req, res);
  }

  async splitByStaff(user: AuthUser, uuid: string, dto: SplitTabDto): Promise<TabResponseDto> {
    const tab = await this.staffTab(user, uuid, 'order.take');
    return this.split(tab.uuid, dto, { kind: 'staff' });
  }

  async splitByGuest(uuid: string, token: unknown, dto: SplitTabDto): Promise<TabResponseDto> {
    const tab = await this.guestTab(uuid, token);
    return this.split(tab.uuid, dto, { kind: 'guest' });
  }

  /**
   * R113: an owner or manager closes a tab with money due, with a reason
   * kept on the tab; with nothing due anyone who takes orders may.
   */
  async close(user: AuthUser, uuid: string, dto: CloseTabDto): Promise<TabResponseDto> {
    const found = await this.staffTab(user, uuid, 'order.take');
    const closed = await this.bus.transaction(async (tx) => {
      const tab = await this.lockTab(tx, found.uuid);
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is already closed.', [
          { field: 'tab', message: 'the tab is closed' },
        ]);
      }
      const money = await this.money(tx.manager, tab);
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
    return this.view(closed, { kind: 'staff' });
  }

  private async split(uuid: string, dto: SplitTabDto, reader: Reader): Promise<TabResponseDto> {
    const request = readSplit(dto);
    const tab = await this.bus.transaction(async (tx) => {
      const tab = await this.lockTab(tx, uuid);
      if (tab.status === 'closed') {
        throw ApiError.conflict('The tab is closed.', [
          { field: 'tab', message: 'the tab is closed' },
        ]);
      }
      const { due, rounds, shares } = await this.money(tx.manager, tab);
      // R112: a share being paid is not replaced under its payer.
      const unpaid = shares.filter((share) => share.status === 'unpaid').map((share) => share.uuid);
      const underWay = (await this.payments.ofShares(unpaid, tx.manager)).find(
        (payment) => payment.status === 'pending',
      );
      if (underWay) {
        throw ApiError.conflict('A payment of a share is under way; split again once it ends.', [
          { field: 'shares', message: 'a payment is under way', share_uuid: underWay.shareUuid },
        ]);
      }
      if (due <= 0) {
        throw ApiError.conflict('The tab owes nothing to split.', [
          { field: 'tab', message: 'nothing is due' },
        ]);
      }
      let amounts: number[];
      let lineSets: Array<TabShareLine[] | null>;
      if (request.by === 'equal') {
        amounts = splitEqually(due, request.parts);
        lineSets = amounts.map(() => null);
      } else if (request.by === 'amount') {
        const result = splitByAmounts(due, request.amounts);
        if (!Array.isArray(result)) {
          throw ApiError.unprocessable(`The amounts must sum to ${formatUnits(due)}.`, [result]);
        }
        amounts = result;
        lineSets = amounts.map(() => null);
      } else {
        const lines = await this.unpaidLines(tx.manager, rounds, shares);
        const itemShares: ItemShare[] = request.shares.map((share) => ({
          lines: share.lines.map((line) => ({
            key: `${line.order_uuid}/${line.line_uuid}`,
            quantity: line.quantity,
          })),
        }));
        const result = splitByItems(due, lines, itemShares);
        if (!Array.isArray(result)) {
          throw ApiError.unprocessable('The shares must cover every unpaid line exactly once.', [
            result,
          ]);
        }
        amounts = result;
        lineSets = request.shares.map((share) => share.lines);
      }
      // R112: a new split replaces the unpaid shares only.
      const newShares: NewShare[] = amounts.map((amount, index) => ({
        position: index,
        amount: formatUnits(amount),
        splitBy: request.by,
        lines: lineSets[index],
      }));
      await this.tabs.replaceUnpaidShares(tx.manager, tab.uuid, newShares);
      return this.tabs.setStatus(tx.manager, tab.uuid, { status: 'settling' });
    });
    return this.view(tab, reader);
  }

  /** Every line of the counted rounds with how many of it no paid share has taken. */
  private async unpaidLines(
    manager: EntityManager,
    rounds: readonly OrderEntity[],
    shares: readonly TabShareEntity[],
  ): Promise<SplitLine[]> {
    const paidTaken = new Map<string, number>();
    for (const share of shares) {
      if (share.status !== 'paid') continue;
      for (const line of share.lines ?? []) {
        const key = `${line.order_uuid}/${line.line_uuid}`;
        paidTaken.set(key, (paidTaken.get(key) ?? 0) + line.quantity);
      }
    }
    const linesByOrder = await this.orders.linesOf(
      rounds.map((round) => round.uuid),
      manager,
    );
    return rounds.flatMap((round) =>
      (linesByOrder.get(round.uuid) ?? []).map((line) => {
        const key = `${round.uuid}/${line.uuid}`;
        return {
          key,
          totalUnits: toUnits(line.lineTotal),
          quantity: line.quantity,
          unpaidQuantity: Math.max(0, line.quantity - (paidTaken.get(key) ?? 0)),
        };
      }),
    );
  }

  /** What the tab's counted rounds come to, what its paid shares paid, and what is due (in units). */
  private async money(manager: EntityManager, tab: TabEntity) {
    const rounds = (await this.tabs.roundsOf([tab.uuid], manager)).filter(
      (round) => !ENDED_UNPAID.has(round.status),
    );
    const shares = await this.tabs.sharesOf([tab.uuid], manager);
    const total = rounds.reduce((sum, round) => sum + toUnits(round.amount), 0);
    const paid = shares
      .filter((share) => share.status === 'paid')
      .reduce((sum, share) => sum + toUnits(share.amount), 0);
    return { total, paid, due: Math.max(0, total - paid), rounds, shares };
  }

  /**
   * The tab's row lock, taken after the payment locks of its shares: a
   * share's payment changes under its own lock and then reaches the tab
   * (heardOfPayment), so every path takes the shares' locks first and no
   * two transactions wait for each other in a circle.
   */
  private async lockTab(tx: Transaction, uuid: string): Promise<TabEntity> {
    for (const share of await this.tabs.sharesOf([uuid], tx.manager)) {
      await this.payments.lock(tx, share.uuid);
    }
    return (await this.tabs.findForUpdate(tx.manager, uuid))!;
  }

  private async staffTab(
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

  private async guestTab(uuid: string, token: unknown): Promise<TabEntity> {
    const tab = isUuid(uuid) ? await this.tabs.find(uuid.toLowerCase()) : null;
    if (!tab || !this.tokens.matches(tab.uuid, token)) {
      throw ApiError.notFound('The tab does not exist.');
    }
    return tab;
  }

  private async view(tab: TabEntity, reader: Reader): Promise<TabResponseDto> {
    const allRounds = await this.tabs.roundsOf([tab.uuid]);
    const { total, paid, due, shares } = await this.money(this.tabs.manager, tab);
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

/** What a share's paid payments brought in, their tips aside. */
function sharePaid(payments: readonly PaymentRow[]): Money {
  return payments.reduce(
    (sum, payment) =>
      payment.status === 'paid' ? sum.plus(payment.amountPaid).minus(payment.tipAmount) : sum,
    new Money(0),
  );
}

/** What `tab.closed` carries: the tab's summary as the webhooks send it. */
function closedEvent(
  tab: TabEntity,
  money: { total: number; paid: number; due: number; rounds: readonly OrderEntity[] },
): TabClosed {
  return {
    ownerUuid: tab.ownerUuid,
    businessUuid: tab.businessUuid,
    tab: {
      uuid: tab.uuid,
      business_uuid: tab.businessUuid,
      menu_uuid: tab.menuUuid,
      table: tab.table,
      status: 'closed',
      total: formatUnits(money.total),
      paid: formatUnits(money.paid),
      due: formatUnits(money.due),
      currency: tab.currency,
      opened_at: iso(tab.openedAt)!,
      closed_at: iso(tab.closedAt),
      close_reason: tab.closeReason,
      round_uuids: money.rounds.map((round) => round.uuid),
    },
  };
}
