import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import {
  execute,
  fetchAll,
  fetchOne,
  jsonb,
  queryBuilder,
  sql,
  Table,
} from '../../database/query-builder';
import { OrderEntity } from '../entities';
import { TabEntity, TabShareEntity, TabShareLine, TabStatus } from './tab.entity';

const db = queryBuilder<{
  tabs: Table<
    TabEntity,
    | 'uuid'
    | 'status'
    | 'openedAt'
    | 'closedAt'
    | 'closedBy'
    | 'closedByRole'
    | 'closeReason'
    | 'updatedAt'
  >;
  tabShares: Table<TabShareEntity, 'uuid' | 'status' | 'createdAt'>;
  orders: Table<OrderEntity>;
}>();

export type NewTab = Pick<
  TabEntity,
  'businessUuid' | 'menuUuid' | 'ownerUuid' | 'table' | 'currency' | 'openedBy'
>;

export interface NewShare {
  position: number;
  amount: string;
  splitBy: string;
  lines: TabShareLine[] | null;
}

/** All SQL of tabs and their shares. Writers take the caller's transaction manager. */
@Injectable()
export class TabRepository {
  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Opens a tab for the table unless one is already open (or settling): a
   * first round racing another waits for its commit and then finds that
   * tab (the partial unique index decides, ON CONFLICT does nothing).
   * Answers the table's tab that is not closed, locked.
   */
  async openOrFind(
    manager: EntityManager,
    tab: NewTab,
  ): Promise<{ tab: TabEntity; opened: boolean }> {
    const inserted = await fetchOne(
      manager,
      db
        .insertInto('tabs')
        .values(tab)
        .onConflict((conflict) =>
          // The partial index's predicate in the text, not a parameter: PostgreSQL
          // matches it to the index when it plans, and a kept (generic) plan of a
          // named statement has no parameter values to match.
          conflict
            .columns(['menuUuid', 'table'])
            .where('status', '<>', sql.lit('closed'))
            .doNothing(),
        )
        .returningAll(),
    );
    if (inserted) return { tab: inserted, opened: true };
    const existing = await this.notClosedForTable(manager, tab.menuUuid, tab.table);
    if (!existing) throw new Error('The table’s tab closed between its insert and its read');
    return { tab: existing, opened: false };
  }

  /** The table's tab that is not closed, locked until the transaction ends; null for none. */
  async notClosedForTable(
    manager: EntityManager,
    menuUuid: string,
    table: string,
  ): Promise<TabEntity | null> {
    return (
      (await fetchOne(
        manager,
        db
          .selectFrom('tabs')
          .selectAll()
          .where('menuUuid', '=', menuUuid)
          .where('table', '=', table)
          .where('status', '<>', 'closed')
          .forUpdate(),
      )) ?? null
    );
  }

  async find(uuid: string, manager: EntityManager = this.manager): Promise<TabEntity | null> {
    return (
      (await fetchOne(manager, db.selectFrom('tabs').selectAll().where('uuid', '=', uuid))) ?? null
    );
  }

  /** The tab locked until the transaction ends. */
  async findForUpdate(manager: EntityManager, uuid: string): Promise<TabEntity | null> {
    return (
      (await fetchOne(
        manager,
        db.selectFrom('tabs').selectAll().where('uuid', '=', uuid).forUpdate(),
      )) ?? null
    );
  }

  /** A business's tabs, newest first (at most `limit`). */
  async listForBusiness(
    businessUuid: string,
    status: TabStatus | undefined,
    limit: number,
  ): Promise<TabEntity[]> {
    let query = db.selectFrom('tabs').selectAll().where('businessUuid', '=', businessUuid);
    if (status) query = query.where('status', '=', status);
    return fetchAll(
      this.manager,
      query.orderBy('openedAt', 'desc').orderBy('uuid', 'desc').limit(limit),
    );
  }

  /** The rounds of these tabs, oldest first. */
  async roundsOf(
    tabUuids: readonly string[],
    manager: EntityManager = this.manager,
  ): Promise<OrderEntity[]> {
    if (tabUuids.length === 0) return [];
    return fetchAll(
      manager,
      db
        .selectFrom('orders')
        .selectAll()
        .where('tabUuid', 'in', [...tabUuids])
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
  }

  /** The shares of these tabs that a split has not replaced, in order. */
  async sharesOf(
    tabUuids: readonly string[],
    manager: EntityManager = this.manager,
  ): Promise<TabShareEntity[]> {
    if (tabUuids.length === 0) return [];
    return fetchAll(
      manager,
      db
        .selectFrom('tabShares')
        .selectAll()
        .where('tabUuid', 'in', [...tabUuids])
        .where('status', '<>', 'replaced')
        .orderBy('tabUuid')
        .orderBy('position'),
    );
  }

  /** A new split: the unpaid shares are replaced, the new ones numbered after every earlier one. */
  async replaceUnpaidShares(
    manager: EntityManager,
    tabUuid: string,
    shares: readonly NewShare[],
  ): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('tabShares')
        .set({ status: 'replaced' })
        .where('tabUuid', '=', tabUuid)
        .where('status', '=', 'unpaid'),
    );
    const last = await fetchOne(
      manager,
      db
        .selectFrom('tabShares')
        .select((eb) => eb.fn.max<number | null>('position').as('last'))
        .where('tabUuid', '=', tabUuid),
    );
    const start = Number(last?.last ?? 0);
    if (shares.length === 0) return;
    await execute(
      manager,
      db.insertInto('tabShares').values(
        shares.map((share, index) => ({
          tabUuid,
          position: start + index + 1,
          amount: share.amount,
          splitBy: share.splitBy,
          lines: jsonb(share.lines),
        })),
      ),
    );
  }

  /** A share of the tab that a split has not replaced; null for none. */
  async findShare(
    manager: EntityManager,
    tabUuid: string,
    shareUuid: string,
  ): Promise<TabShareEntity | null> {
    return (
      (await fetchOne(
        manager,
        db
          .selectFrom('tabShares')
          .selectAll()
          .where('tabUuid', '=', tabUuid)
          .where('uuid', '=', shareUuid)
          .where('status', '<>', 'replaced'),
      )) ?? null
    );
  }

  async findShareByUuid(manager: EntityManager, uuid: string): Promise<TabShareEntity | null> {
    return (
      (await fetchOne(manager, db.selectFrom('tabShares').selectAll().where('uuid', '=', uuid))) ??
      null
    );
  }

  async markSharePaid(manager: EntityManager, uuid: string): Promise<void> {
    await execute(
      manager,
      db.updateTable('tabShares').set({ status: 'paid' }).where('uuid', '=', uuid),
    );
  }

  /** A tab that closed paid: its rounds are paid with it. */
  async markRoundsPaid(manager: EntityManager, tabUuid: string): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('orders')
        .set({ paymentStatus: 'paid', updatedAt: sql<Date>`now()` })
        .where('tabUuid', '=', tabUuid)
        .where('paymentStatus', '=', 'on_tab'),
    );
  }

  async setStatus(
    manager: EntityManager,
    uuid: string,
    changes: Partial<
      Pick<TabEntity, 'status' | 'closedAt' | 'closedBy' | 'closedByRole' | 'closeReason'>
    >,
  ): Promise<TabEntity> {
    return (await fetchOne(
      manager,
      db
        .updateTable('tabs')
        .set({ ...changes, updatedAt: sql<Date>`now()` })
        .where('uuid', '=', uuid)
        .returningAll(),
    ))!;
  }
}
