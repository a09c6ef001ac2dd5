import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

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
    const rows: unknown[] = await manager.query(
      `INSERT INTO order_slots (menu_uuid, slot_start, taken) VALUES ($1, $2, 1)
       ON CONFLICT (menu_uuid, slot_start)
         DO UPDATE SET taken = order_slots.taken + 1
         WHERE $3::int IS NULL OR order_slots.taken < $3::int
       RETURNING taken`,
      [menuUuid, slotStart, cap],
    );
    return rows.length === 1;
  }

  /** Frees the place of an order that no longer holds its slot (cancelled or rejected). */
  async release(manager: EntityManager, menuUuid: string, slotStart: Date): Promise<void> {
    await manager.query(
      `UPDATE order_slots SET taken = taken - 1
        WHERE menu_uuid = $1 AND slot_start = $2 AND taken > 0`,
      [menuUuid, slotStart],
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
    const rows: Array<{ slot_start: Date | string; taken: number }> = await this.dataSource.query(
      `SELECT slot_start, taken FROM order_slots
        WHERE menu_uuid = $1 AND slot_start = ANY($2::timestamptz[])`,
      [menuUuid, starts.map((start) => start.toISOString())],
    );
    return new Map(rows.map((row) => [new Date(row.slot_start).getTime(), Number(row.taken)]));
  }
}
