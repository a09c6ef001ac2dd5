import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import {
  dayNumberOf,
  EntityRecord,
  instantOfLocal,
  readStockSetting,
  StorefrontService,
  StorefrontStockSource,
} from '../entity';
import { localDayOf, periodOf, stockTimeZone } from './stock-periods';
import { StockRepository } from './stock.repository';

/**
 * What the storefront shows of stock: each stocked item's `stock_remaining`
 * for today (the business's local day) and `available: false` at 0. The
 * stored storefront is marked stale in the transaction of each change of a
 * count, committing with it, and the cached answers are dropped once it has
 * committed, before the change answers (StorefrontService.stockChanged); it
 * ends with the business's day when an item counts daily.
 */
@Injectable()
export class StockStorefront implements StorefrontStockSource {
  constructor(
    private readonly repository: StockRepository,
    private readonly clock: Clock,
    storefront: StorefrontService,
  ) {
    storefront.useStock(this);
  }

  // R97: the storefront shows what remains today, never stale after a change.
  async read(
    business: EntityRecord,
    items: readonly EntityRecord[],
    manager: EntityManager,
  ): Promise<{ remaining: Map<string, number>; untilMs: number | null }> {
    const remaining = new Map<string, number>();
    const stocked = items
      .map((item) => ({ item, setting: readStockSetting(item.extraData) }))
      .filter((entry) => entry.setting !== null);
    if (stocked.length === 0) return { remaining, untilMs: null };
    const zone = stockTimeZone(business.extraData);
    const now = this.clock.now();
    const pairs = stocked.map(({ item, setting }) => ({
      itemUuid: item.uuid,
      period: periodOf(setting!.mode, zone, now),
    }));
    const counts = await this.repository.countsOf(pairs, manager);
    stocked.forEach(({ item, setting }, index) => {
      const count = counts.get(`${item.uuid}/${pairs[index].period}`);
      const left = setting!.quantity + (count?.adjusted ?? 0) - (count?.taken ?? 0);
      remaining.set(item.uuid, Math.max(0, left));
    });
    const daily = stocked.some(({ setting }) => setting!.mode === 'daily');
    const today = dayNumberOf(localDayOf(zone, now));
    const untilMs =
      daily && today !== undefined ? instantOfLocal(zone, today + 1, 0).getTime() : null;
    return { remaining, untilMs };
  }
}
