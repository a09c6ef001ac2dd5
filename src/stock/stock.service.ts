import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { AppEvents, EventBus, Transaction } from '../database/event-bus';
import { EntityRecord, readStockSetting, StockSetting, StorefrontService } from '../entity';
import { ApiError } from '../http/api-error';
import { AccessPolicy } from '../team';
import { AdjustStockDto, StockItemResponseDto, StockLedgerEntryDto } from './dto/stock.dto';
import { belowHeld, isDay, remainingOf, shortOf, toLedgerEntry, viewOf } from './stock-answers';
import { crossings, StockCrossed } from './stock-events';
import { COUNT_PERIOD, localDayOf, periodOf, stockTimeZone } from './stock-periods';
import { PeriodCount, StockRepository } from './stock.repository';

const NO_BUSINESS = { noPart: 'not_found' as const, message: 'Business not found.' };
/** The ledger answers at most this many entries, newest first. */
export const LEDGER_LIMIT = 1000;

/** One line of an order as stock reads it. */
export interface StockLine {
  /** The line's index in the order's `cart_items`. */
  position: number;
  itemUuid: string;
  quantity: number;
  /** The item's `extra_data` as placement read it. */
  extraData: Record<string, unknown> | null;
}

/** An order's portions to take, in the order's transaction. */
export interface StockTake {
  orderUuid: string;
  businessUuid: string;
  /** The order's menu, whose storefront shows what remains. */
  menuUuid: string;
  /** The business's owner (whose webhook endpoints hear of crossings). */
  ownerUuid: string;
  businessExtra: Record<string, unknown> | null;
  /** An order for later takes from the day of this time; null: now. */
  requestedTime: Date | null;
  lines: readonly StockLine[];
  /** Who placed it, as in the order's history. */
  actor: string;
  byUuid: string | null;
}

const endsOrder = (status: string | undefined) => status === 'rejected' || status === 'cancelled';

/**
 * Portions that run out. Placement (and any other way an order arrives)
 * takes an order's portions in its transaction; an order that ends
 * rejected or cancelled gives them back once; the business's members read
 * the counts, adjust them and read the ledger of every change.
 */
@Injectable()
export class StockService {
  private readonly itemType: string;

  constructor(
    private readonly repository: StockRepository,
    private readonly access: AccessPolicy,
    private readonly clock: Clock,
    @InjectConfig() config: AppConfig,
    private readonly bus: EventBus,
    private readonly storefront: StorefrontService,
  ) {
    this.itemType = `${config.namespace}_business_menu_item`;
    bus.on('order.changed', (event, tx) => this.onOrderChanged(event, tx));
  }

  /**
   * Takes the portions of an order's stocked lines, in the order's
   * transaction; an order without stocked items costs nothing here. Refuses
   * (422, nothing taken: the transaction rolls back) the first line whose
   * item has fewer portions left than the order asks, with `remaining`.
   * The take goes first in the statement that sends the transaction's held
   * writes, just before the commit, and the statement checks that no line
   * is short and no threshold crossed, so that it can carry the COMMIT: the
   * counts' rows, which every order of the same items waits for, stay
   * locked only while PostgreSQL runs that statement, and the stocked order
   * sends no statement of its own. A refusal or a crossing has the order's
   * transaction run again with the COMMIT on its own, where `afterTake`
   * refuses the line or announces the crossing.
   */
  async takeForOrder(tx: Transaction, take: StockTake): Promise<void> {
    // Per item: its setting, the portions of all its lines, and its first line (named in a refusal).
    const wanted = new Map<string, { setting: StockSetting; portions: number; position: number }>();
    for (const line of take.lines) {
      const setting = readStockSetting(line.extraData);
      if (!setting) continue;
      const entry = wanted.get(line.itemUuid);
      if (entry) entry.portions += line.quantity;
      else wanted.set(line.itemUuid, { setting, portions: line.quantity, position: line.position });
    }
    if (wanted.size === 0) return;
    const zone = stockTimeZone(take.businessExtra);
    const instant = take.requestedTime ?? this.clock.now();
    const at = this.clock.now();
    // One period per mode: every item of the order shares the business's day.
    const periods = new Map<StockSetting['mode'], string>();
    const periodFor = (mode: StockSetting['mode']) => {
      let period = periods.get(mode);
      if (period === undefined) periods.set(mode, (period = periodOf(mode, zone, instant)));
      return period;
    };
    // In item order: the refusal names the first item short, as the rows are locked.
    const items = [...wanted.keys()].sort().map((itemUuid) => {
      const { setting, portions, position } = wanted.get(itemUuid)!;
      const period = periodFor(setting.mode);
      return { itemUuid, period, portions, quantity: setting.quantity, setting, position };
    });
    // Taken by the statement that sends the transaction's held writes, first in it.
    await this.repository.takeAll(
      tx.manager,
      take.businessUuid,
      items,
      (outcomes) => this.afterTake(tx, take, items, outcomes),
      new Map(items.map(({ itemUuid, setting }) => [itemUuid, setting.lowAt])),
    );
    // Held, so sent in that statement after the take (rolled back with a refusal).
    await this.repository.holdLedger(
      tx.manager,
      items.map(({ itemUuid, period, portions }) => ({
        businessUuid: take.businessUuid,
        itemUuid,
        period,
        at,
        delta: -portions,
        reason: 'order',
        note: null,
        orderUuid: take.orderUuid,
        byUuid: take.byUuid,
        actor: take.actor,
      })),
    );
    await this.storefront.stockChanged(tx, [take.menuUuid]);
  }

  /** Refuses the first line short (R96), else announces the crossings of what was taken. */
  private async afterTake(
    tx: Transaction,
    take: StockTake,
    items: ReadonlyArray<{
      itemUuid: string;
      period: string;
      portions: number;
      setting: StockSetting;
      position: number;
    }>,
    outcomes: Map<string, { ok: boolean; count: PeriodCount }>,
  ): Promise<void> {
    for (const { itemUuid, setting, position } of items) {
      const { ok, count } = outcomes.get(itemUuid)!;
      // R96: a line asking more than remain is refused, naming the line, with what remains.
      if (!ok) throw shortOf(position, remainingOf(setting.quantity, count));
    }
    for (const { itemUuid, setting, portions, period } of items) {
      const { count } = outcomes.get(itemUuid)!;
      const after = remainingOf(setting.quantity, count);
      await this.announce(tx, crossings(after + portions, after, setting.lowAt), {
        ownerUuid: take.ownerUuid,
        businessUuid: take.businessUuid,
        menuUuid: take.menuUuid,
        itemUuid,
        setting,
        period,
        count,
      });
    }
  }

  // R98: a rejected or cancelled order gives its portions back, once.
  /**
   * An order that ends rejected or cancelled gives back what it still
   * holds. The mover holds the order's row lock and the state machine lets
   * an order end only once; what it holds is read from the ledger, so a
   * second return finds nothing to give.
   */
  private async onOrderChanged(event: AppEvents['order.changed'], tx: Transaction): Promise<void> {
    if (
      !endsOrder(event.order.status) ||
      !event.previousStatus ||
      endsOrder(event.previousStatus)
    ) {
      return;
    }
    const held = await this.repository.heldBy(tx.manager, event.order.uuid);
    if (held.length === 0) return;
    const by = await this.repository.lastStatusMove(tx.manager, event.order.uuid);
    const at = this.clock.now();
    for (const portions of held) {
      await this.repository.giveBack(tx.manager, portions.itemUuid, portions.period, portions.held);
    }
    await this.repository.insertLedger(
      tx.manager,
      held.map((portions) => ({
        businessUuid: portions.businessUuid,
        itemUuid: portions.itemUuid,
        period: portions.period,
        at,
        delta: portions.held,
        reason: 'order_returned',
        note: null,
        orderUuid: event.order.uuid,
        byUuid: by?.actorUuid ?? null,
        actor: by?.actor ?? 'system',
      })),
    );
    await this.storefront.stockChanged(tx, [event.order.menuUuid]);
  }

  /** Publishes each line crossed, in the change's transaction (webhooks hear of it there). */
  private async announce(
    tx: Transaction,
    types: Array<StockCrossed['type']>,
    at: {
      ownerUuid: string;
      businessUuid: string;
      menuUuid: string | null;
      itemUuid: string;
      setting: StockSetting;
      period: string;
      count: PeriodCount;
    },
  ): Promise<void> {
    for (const type of types) {
      await tx.emit('stock.crossed', {
        type,
        ownerUuid: at.ownerUuid,
        businessUuid: at.businessUuid,
        item: {
          item_uuid: at.itemUuid,
          menu_uuid: at.menuUuid,
          mode: at.setting.mode,
          date: at.period === COUNT_PERIOD ? null : at.period,
          quantity: Math.max(0, at.setting.quantity + at.count.adjusted),
          taken: at.count.taken,
          remaining: remainingOf(at.setting.quantity, at.count),
          low_at: at.setting.lowAt,
        },
      });
    }
  }

  // R99: stock is read, adjusted and its ledger read by the owner, managers and staff.
  private async requireAccess(user: AuthUser, businessUuid: string): Promise<string> {
    const role = await this.access.requireAccess(
      user,
      'item.availability',
      businessUuid,
      NO_BUSINESS,
    );
    return role;
  }

  private async todayOf(businessUuid: string): Promise<{ zone: string; today: string }> {
    const zone = stockTimeZone(await this.repository.businessExtra(businessUuid));
    return { zone, today: localDayOf(zone, this.clock.now()) };
  }

  /** Every stocked item of the business with its count for a local day (default today). */
  async list(user: AuthUser, businessUuid: string, date?: string): Promise<StockItemResponseDto[]> {
    await this.requireAccess(user, businessUuid);
    const business = businessUuid.toLowerCase();
    if (date !== undefined && !isDay(date)) {
      throw ApiError.validation([{ field: 'date', message: 'date must be a day as YYYY-MM-DD' }]);
    }
    const day = date ?? (await this.todayOf(business)).today;
    const items = (await this.repository.stockedItems(business, this.itemType))
      .map((item) => ({ item, setting: readStockSetting(item.extraData) }))
      .filter((entry): entry is { item: EntityRecord; setting: StockSetting } => !!entry.setting);
    const periods = items.map(({ item, setting }) => ({
      itemUuid: item.uuid,
      period: setting.mode === 'daily' ? day : COUNT_PERIOD,
    }));
    const counts = await this.repository.countsOf(periods);
    return items.map(({ item, setting }, index) =>
      viewOf(
        item,
        setting,
        periods[index].period,
        counts.get(`${item.uuid}/${periods[index].period}`),
      ),
    );
  }

  /** Adjusts an item's portions (today's, for daily stock), never below what orders hold. */
  async adjust(
    user: AuthUser,
    businessUuid: string,
    itemUuid: string,
    dto: AdjustStockDto,
  ): Promise<StockItemResponseDto> {
    const role = await this.requireAccess(user, businessUuid);
    if ((dto.delta === undefined) === (dto.set === undefined)) {
      throw ApiError.validation([{ field: 'delta', message: 'send exactly one of delta and set' }]);
    }
    const business = businessUuid.toLowerCase();
    const { item, setting } = await this.stockedItem(business, itemUuid);
    const { zone } = await this.todayOf(business);
    const period = periodOf(setting.mode, zone, this.clock.now());
    const change = dto.set !== undefined ? { set: dto.set } : { delta: dto.delta! };
    const after = await this.bus.transaction(async (tx) => {
      const { manager } = tx;
      const adjusted = await this.repository.adjust(
        manager,
        business,
        item.uuid,
        period,
        change,
        setting.quantity,
      );
      // Thrown inside the transaction: a refusal leaves no row behind.
      if ('refused' in adjusted) throw belowHeld(setting, adjusted.refused);
      await this.storefront.stockChanged(tx, [item.parentEntityUuid]);
      await this.repository.insertLedger(manager, [
        {
          businessUuid: business,
          itemUuid: item.uuid,
          period,
          at: this.clock.now(),
          delta: adjusted.after.adjusted - adjusted.before.adjusted,
          reason: dto.reason,
          note: dto.note ?? null,
          orderUuid: null,
          byUuid: user.uuid,
          actor: role,
        },
      ]);
      await this.announce(
        tx,
        crossings(
          remainingOf(setting.quantity, adjusted.before),
          remainingOf(setting.quantity, adjusted.after),
          setting.lowAt,
        ),
        {
          ownerUuid: item.ownedBy,
          businessUuid: business,
          menuUuid: item.parentEntityUuid,
          itemUuid: item.uuid,
          setting,
          period,
          count: adjusted.after,
        },
      );
      return adjusted.after;
    });
    return viewOf(item, setting, period, after);
  }

  /** An item's ledger, newest first. */
  async ledger(
    user: AuthUser,
    businessUuid: string,
    itemUuid: string,
  ): Promise<StockLedgerEntryDto[]> {
    await this.requireAccess(user, businessUuid);
    const item = await this.itemOf(businessUuid.toLowerCase(), itemUuid);
    const entries = await this.repository.ledgerOf(item.uuid, LEDGER_LIMIT);
    return entries.map(toLedgerEntry);
  }

  private async itemOf(businessUuid: string, itemUuid: string): Promise<EntityRecord> {
    const item = isUuid(itemUuid)
      ? await this.repository.itemOf(businessUuid, itemUuid.toLowerCase(), this.itemType)
      : undefined;
    if (!item) throw ApiError.notFound('The item does not exist in this business.');
    return item;
  }

  private async stockedItem(
    businessUuid: string,
    itemUuid: string,
  ): Promise<{ item: EntityRecord; setting: StockSetting }> {
    const item = await this.itemOf(businessUuid, itemUuid);
    const setting = readStockSetting(item.extraData);
    if (!setting) {
      throw ApiError.unprocessable('The item has no stock; set extra_data.stock first.', [
        { field: 'item_uuid', message: 'the item has no extra_data.stock' },
      ]);
    }
    return { item, setting };
  }
}
