import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EntityRecord } from '../entity';
import {
  execute,
  fetchAll,
  fetchOne,
  queryBuilder,
  rowsTable,
  sql,
  Table,
} from '../database/query-builder';
import { keepPlan } from '../database/kept-plans';
import { preparedQuery } from '../database/prepared-query';
import { writeBeforeCommit, writeLeadingBeforeCommit } from '../database/writes-before-commit';
import { StockCountEntity, StockLedgerEntity } from './stock.entity';
import { inItemOrder, takeSettled, takeStatement, WantedPortions } from './stock-take.statements';

/** The columns of an order's history this module reads: who made its last status move. */
interface OrderEventRow {
  id: string;
  orderUuid: string;
  field: string;
  actor: string;
  actorUuid: string | null;
}

const db = queryBuilder<{
  stockCounts: Table<StockCountEntity, 'taken' | 'adjusted'>;
  stockLedger: Table<StockLedgerEntity, 'uuid'>;
  entities: Table<EntityRecord>;
  orderEvents: OrderEventRow;
}>();

/** What a period holds: `taken` by orders and `adjusted` by hand. */
export interface PeriodCount {
  taken: number;
  adjusted: number;
}

const NOTHING: PeriodCount = { taken: 0, adjusted: 0 };

export type NewLedgerEntry = Omit<StockLedgerEntity, 'uuid'>;

/** An order's portions still held, per item and period. */
export interface HeldPortions {
  businessUuid: string;
  itemUuid: string;
  period: string;
  held: number;
}

function counted(row: { taken: unknown; adjusted: unknown }): PeriodCount {
  return { taken: Number(row.taken), adjusted: Number(row.adjusted) };
}

/** The types of the ledger's columns as an insert writes them, in its column order. */
const LEDGER_TYPES = {
  businessUuid: 'uuid',
  itemUuid: 'uuid',
  period: 'text',
  at: 'timestamptz',
  delta: 'int',
  reason: 'text',
  note: 'text',
  orderUuid: 'uuid',
  byUuid: 'uuid',
  actor: 'text',
} as const satisfies Record<keyof NewLedgerEntry, string>;
const LEDGER_COLUMNS = Object.keys(LEDGER_TYPES) as Array<keyof typeof LEDGER_TYPES>;

/** Ledger entries in one statement, one parameter per column however many (prepared). */
const insertLedgerRows = preparedQuery(({ entries }: { entries: NewLedgerEntry[] }) =>
  db
    .insertInto('stockLedger')
    .columns(LEDGER_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom(rowsTable(entries, LEDGER_TYPES, 'l'))
        .select(LEDGER_COLUMNS.map((column) => `l.${column}` as const)),
    ),
);

/**
 * Stock counts and the ledger. Every change of a count is one conditional
 * write: the condition is checked against the row as the statement finds
 * it, after waiting for any other transaction holding it, so no two takes
 * can both see the last portion.
 */
@Injectable()
export class StockRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Makes the period's row when it has none yet (nothing taken or adjusted). */
  private async ensureRow(
    manager: EntityManager,
    businessUuid: string,
    itemUuid: string,
    period: string,
  ): Promise<void> {
    await execute(
      manager,
      db
        .insertInto('stockCounts')
        .values({ itemUuid, period, businessUuid })
        .onConflict((conflict) => conflict.columns(['itemUuid', 'period']).doNothing()),
    );
  }

  // R96: portions are taken by one conditional decrement, never read then written.
  /**
   * Takes each item's `portions` from its period in one statement, where
   * that many remain of `quantity` + adjusted, and hands `then` per item the
   * count after (`ok`), or the count as it stands with nothing taken. The
   * statement is the transaction's leading write (writeLeadingBeforeCommit):
   * it goes first in the one that sends the held writes, just before the
   * commit, and `then` runs once it has answered (outside a transaction
   * that holds writes, at once). A period without
   * a row gets its row here (nothing adjusted), holding the portions when
   * `quantity` covers them. The rows are locked in item order, so two
   * orders of the same items never wait for each other crosswise; each
   * condition is checked on the row as it stands once any other transaction
   * holding it has ended. A refusal leaves the takes of the other items in
   * place: `then` throws, and the transaction rolls back. Given each item's
   * low threshold (`lowAt`), the statement also checks whether `then` has
   * anything to do (a refusal, a crossing); when it has not, the statement
   * may carry the transaction's commit and `then` is not called (see
   * writeLeadingBeforeCommit).
   */
  takeAll(
    manager: EntityManager,
    businessUuid: string,
    wanted: readonly WantedPortions[],
    then: (outcomes: Map<string, { ok: boolean; count: PeriodCount }>) => Promise<void>,
    lowAt?: ReadonlyMap<string, number>,
  ): Promise<void> {
    const rows = inItemOrder(wanted);
    // With every item's low threshold, the statement can tell that `then` has nothing to do.
    // Counts upserted by their keys, and a check of the statement's own rows: plans may be kept.
    const settled =
      lowAt &&
      keepPlan(
        takeSettled({
          rows: rows.map(({ itemUuid, portions, quantity }) => ({
            itemUuid,
            portions,
            quantity,
            lowAt: lowAt.get(itemUuid) ?? 0,
          })),
        }),
      );
    return writeLeadingBeforeCommit(
      manager,
      keepPlan(takeStatement({ businessUuid, rows })),
      async (taken) => then(await this.outcomesOf(manager, rows, taken)),
      settled,
    );
  }

  /** Per item, what the take did: the count after, or the count as it stands when short. */
  private async outcomesOf(
    manager: EntityManager,
    rows: readonly WantedPortions[],
    taken: ReadonlyArray<{ itemUuid: string; taken: unknown; adjusted: unknown }>,
  ): Promise<Map<string, { ok: boolean; count: PeriodCount }>> {
    const after = new Map(taken.map((row) => [row.itemUuid, counted(row)]));
    // A row the statement left out is locked but short; read as it stands.
    const short = rows.filter((row) => !after.has(row.itemUuid));
    const standing = short.length ? await this.countsOf(short, manager) : new Map();
    const outcomes = new Map<string, { ok: boolean; count: PeriodCount }>();
    for (const row of rows) {
      const count = after.get(row.itemUuid);
      // A new row made without the portions holds none of them (taken 0).
      if (count && count.taken >= row.portions) outcomes.set(row.itemUuid, { ok: true, count });
      else {
        const now = count ?? standing.get(`${row.itemUuid}/${row.period}`) ?? NOTHING;
        outcomes.set(row.itemUuid, { ok: false, count: now });
      }
    }
    return outcomes;
  }

  /** Gives back portions an order held; `taken` never goes below 0. */
  async giveBack(
    manager: EntityManager,
    itemUuid: string,
    period: string,
    portions: number,
  ): Promise<PeriodCount | null> {
    const row = await fetchOne(
      manager,
      db
        .updateTable('stockCounts')
        .set({ taken: sql<number>`GREATEST(taken - ${portions}, 0)` })
        .where('itemUuid', '=', itemUuid)
        .where('period', '=', period)
        .returning(['taken', 'adjusted']),
    );
    return row ? counted(row) : null;
  }

  /**
   * Adds `delta` to the period's adjustments unless what would remain
   * (`quantity` + adjusted + delta − taken) falls below 0: the count after, or null.
   */
  async adjust(
    manager: EntityManager,
    businessUuid: string,
    itemUuid: string,
    period: string,
    change: { delta: number } | { set: number },
    quantity: number,
  ): Promise<{ before: PeriodCount; after: PeriodCount } | { refused: PeriodCount }> {
    await this.ensureRow(manager, businessUuid, itemUuid, period);
    // The row is locked for the adjustment; a take waits for it.
    const before = counted(
      (await fetchOne(
        manager,
        db
          .selectFrom('stockCounts')
          .select(['taken', 'adjusted'])
          .where('itemUuid', '=', itemUuid)
          .where('period', '=', period)
          .forUpdate(),
      ))!,
    );
    const adjusted =
      'set' in change ? before.taken + change.set - quantity : before.adjusted + change.delta;
    if (quantity + adjusted < before.taken) return { refused: before };
    await execute(
      manager,
      db
        .updateTable('stockCounts')
        .set({ adjusted })
        .where('itemUuid', '=', itemUuid)
        .where('period', '=', period),
    );
    return { before, after: { taken: before.taken, adjusted } };
  }

  /** The counts of these items' periods (item uuid → count); a period without a row is absent. */
  async countsOf(
    pairs: ReadonlyArray<{ itemUuid: string; period: string }>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, PeriodCount>> {
    const found = new Map<string, PeriodCount>();
    if (pairs.length === 0) return found;
    const rows = await fetchAll(
      manager,
      db
        .selectFrom('stockCounts')
        .select(['itemUuid', 'period', 'taken', 'adjusted'])
        .where((eb) =>
          eb.or(
            pairs.map((pair) =>
              eb.and([eb('itemUuid', '=', pair.itemUuid), eb('period', '=', pair.period)]),
            ),
          ),
        ),
    );
    for (const row of rows) found.set(`${row.itemUuid}/${row.period}`, counted(row));
    return found;
  }

  async insertLedger(manager: EntityManager, entries: readonly NewLedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await execute(manager, insertLedgerRows({ entries: [...entries] }));
  }

  /**
   * Ledger entries nothing later in the transaction reads (an order's
   * takes): sent with the transaction's other held writes, in one round trip
   * just before it commits.
   */
  async holdLedger(manager: EntityManager, entries: readonly NewLedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await writeBeforeCommit(manager, keepPlan(insertLedgerRows({ entries: [...entries] })));
  }

  /** An item's ledger, newest first. */
  ledgerOf(itemUuid: string, limit: number): Promise<StockLedgerEntity[]> {
    return fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('stockLedger')
        .selectAll()
        .where('itemUuid', '=', itemUuid)
        .orderBy('at', 'desc')
        .orderBy('uuid', 'desc')
        .limit(limit),
    );
  }

  /** What an order still holds: its takes less its returns, per item and period. */
  async heldBy(manager: EntityManager, orderUuid: string): Promise<HeldPortions[]> {
    const rows = await fetchAll(
      manager,
      db
        .selectFrom('stockLedger')
        .select(['businessUuid', 'itemUuid', 'period', sql<number>`-SUM(delta)`.as('held')])
        .where('orderUuid', '=', orderUuid)
        .where('reason', 'in', ['order', 'order_returned'])
        .groupBy(['businessUuid', 'itemUuid', 'period'])
        .orderBy('itemUuid'),
    );
    return rows.map((row) => ({ ...row, held: Number(row.held) })).filter((row) => row.held > 0);
  }

  /** Who made an order's last status move, from its history. */
  async lastStatusMove(
    manager: EntityManager,
    orderUuid: string,
  ): Promise<{ actor: string; actorUuid: string | null } | undefined> {
    return fetchOne(
      manager,
      db
        .selectFrom('orderEvents')
        .select(['actor', 'actorUuid'])
        .where('orderUuid', '=', orderUuid)
        .where('field', '=', 'status')
        .orderBy('id', 'desc')
        .limit(1),
    );
  }

  /** The live items of the business's menus that have a stock setting, by title. */
  stockedItems(businessUuid: string, itemType: string): Promise<EntityRecord[]> {
    return fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('entities as item')
        .innerJoin('entities as menu', 'menu.uuid', 'item.parentEntityUuid')
        .selectAll('item')
        .where('menu.parentEntityUuid', '=', businessUuid)
        .where('item.entityType', '=', itemType)
        .where('item.trashedAt', 'is', null)
        .where('menu.trashedAt', 'is', null)
        .where(sql<boolean>`item.extra_data ? 'stock'`)
        .orderBy('item.titleName')
        .orderBy('item.uuid'),
    );
  }

  /** One item of the business's menus (trashed or not), or undefined. */
  itemOf(
    businessUuid: string,
    itemUuid: string,
    itemType: string,
  ): Promise<EntityRecord | undefined> {
    return fetchOne(
      this.dataSource.manager,
      db
        .selectFrom('entities as item')
        .innerJoin('entities as menu', 'menu.uuid', 'item.parentEntityUuid')
        .selectAll('item')
        .where('item.uuid', '=', itemUuid)
        .where('menu.parentEntityUuid', '=', businessUuid)
        .where('item.entityType', '=', itemType),
    );
  }

  /** The business record's `extra_data` (for its time zone), or undefined. */
  async businessExtra(businessUuid: string): Promise<Record<string, unknown> | undefined> {
    const row = await fetchOne(
      this.dataSource.manager,
      db.selectFrom('entities').select('extraData').where('uuid', '=', businessUuid),
    );
    return row?.extraData;
  }
}
