import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { execute, fetchAll, queryBuilder, sql, Table } from '../database/query-builder';
import { OrderSlotEntity } from './entities';

const db = queryBuilder<{ orderSlots: Table<OrderSlotEntity, 'taken'> }>();

/**
 * The count of orders for later per menu and slot. Taking a place is one
 * upsert that locks the slot's row: simultaneous placements wait for each
 * other, and each sees the count the one before it committed.
 */
@Injectable()
export class OrderSlotsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Counts one more order in the slot, unless `cap` orders already hold it;
   * false then (nothing changes). Null `cap`: counted without a limit, so a
   * cap set later finds the slot's orders counted.
   */
  async take(
    manager: EntityManager,
    menuUuid: string,
    slotStart: Date,
    cap: number | null,
  ): Promise<boolean> {
    const rows = await fetchAll(
      manager,
      db
        .insertInto('orderSlots')
        .values({ menuUuid, slotStart, taken: 1 })
        .onConflict((conflict) =>
          conflict
            .columns(['menuUuid', 'slotStart'])
            .doUpdateSet({ taken: sql<number>`order_slots.taken + 1` })
            .where((eb) => (cap === null ? sql<boolean>`true` : eb('orderSlots.taken', '<', cap))),
        )
        .returning('taken'),
    );
    return rows.length === 1;
  }

  /** Frees the place of an order that no longer holds its slot (cancelled or rejected). */
  async release(manager: EntityManager, menuUuid: string, slotStart: Date): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('orderSlots')
        .set({ taken: sql<number>`taken - 1` })
        .where('menuUuid', '=', menuUuid)
        .where('slotStart', '=', slotStart)
        .where('taken', '>', 0),
    );
  }

  /**
   * Frees the place of an order for later that moves to `cancelled` or
   * `rejected`; an order for now, or one already out of its slot, has none.
   */
  async releaseOnStatus(
    manager: EntityManager,
    order: { menuUuid: string; requestedTime: Date | null; status: string },
    nextStatus: string | undefined,
  ): Promise<void> {
    const frees = (status: string | undefined) => status === 'cancelled' || status === 'rejected';
    if (!order.requestedTime || frees(order.status) || !frees(nextStatus)) return;
    await this.release(manager, order.menuUuid, new Date(order.requestedTime));
  }

  /** How many orders hold each of `starts` (absent: none). */
  async counts(menuUuid: string, starts: Date[]): Promise<Map<number, number>> {
    if (starts.length === 0) return new Map();
    const rows = await fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('orderSlots')
        .select(['slotStart', 'taken'])
        .where('menuUuid', '=', menuUuid)
        .where('slotStart', 'in', starts),
    );
    return new Map(rows.map((row) => [new Date(row.slotStart).getTime(), Number(row.taken)]));
  }
}
