import type { EntityManager } from 'typeorm';
import type { EntityRecord } from './entity-record.entity';

/**
 * What the storefront shows of items' stock, told by the stock module (the
 * entity module knows nothing of stock counts): for each of these items that
 * has stock, what remains today, and until when (epoch ms) today lasts when
 * one of them counts daily (null when none does). Read in the storefront
 * build's snapshot, with its manager.
 */
export interface StorefrontStockSource {
  read(
    business: EntityRecord,
    items: readonly EntityRecord[],
    manager: EntityManager,
  ): Promise<{ remaining: Map<string, number>; untilMs: number | null }>;
}

/**
 * An item of the storefront with its stock: `stock_remaining` beside `uuid`
 * and, at 0, `extra_data.available` false (sold out, as by hand).
 */
export function withStock<T extends { uuid: string; extra_data?: Record<string, unknown> | null }>(
  item: T,
  remaining: number | undefined,
): T {
  if (remaining === undefined) return item;
  const { uuid, ...rest } = item;
  const shown = { uuid, stock_remaining: remaining, ...rest } as unknown as T;
  if (remaining <= 0) shown.extra_data = { ...(item.extra_data ?? {}), available: false };
  return shown;
}
