import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { execute, fetchAll, noTables, queryBuilder, sql, Table } from '../database/query-builder';
import { writeLeadingBeforeCommit } from '../database/writes-before-commit';
import { OrderSlotEntity } from './entities';

const db = queryBuilder<{ orderSlots: Table<OrderSlotEntity, 'taken'> }>();

/**
 * One more order in the slot, unless `cap` orders already hold it (no row
 * answered then, nothing changed). A null `cap` counts without a limit.
 * Prepared: every order for later sends it.
 */
const takePlace = preparedQuery(
  ({ menuUuid, slotStart, cap }: { menuUuid: string; slotStart: Date; cap: number | null }) =>
    db
      .insertInto('orderSlots')
      .values({ menuUuid, slotStart, taken: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(['menuUuid', 'slotStart'])
          .doUpdateSet({ taken: sql<number>`order_slots.taken + 1` })
          .where(sql<boolean>`coalesce(order_slots.taken < ${cap}::int, true)`),
      )
      .returning('taken'),
);

/** Whether the take (its rows named `lead`) took the place. */
const placeTaken = preparedQuery((_: Record<string, never>) =>
  noTables.selectNoFrom(sql<boolean>`EXISTS (SELECT 1 FROM lead)`.as('settled')),
);

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
   * then `full` runs (it throws the refusal, rolling the transaction back).
   * Null `cap`: counted without a limit, so a cap set later finds the
   * slot's orders counted.
   *
   * Held as a leading write of its transaction (writeLeadingBeforeCommit):
   * the slot's row is locked by the statement sent with the COMMIT, not
   * from the middle of the placement on, so simultaneous orders for one
   * slot wait for that statement only. A full slot makes that statement
   * fail, and the placement runs again to refuse the order.
   */
  async take(
    manager: EntityManager,
    menuUuid: string,
    slotStart: Date,
    cap: number | null,
    full: () => Promise<void>,
  ): Promise<void> {
    await writeLeadingBeforeCommit(
      manager,
      takePlace({ menuUuid, slotStart, cap }),
      async (rows) => {
        if (rows.length !== 1) await full();
      },
      placeTaken({}),
    );
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
