import { noTables, queryBuilder, rowsTable, sql, Table } from '../database/query-builder';
import { preparedQuery } from '../database/prepared-query';
import { StockCountEntity } from './stock.entity';

/**
 * The statements of an order's take of portions (StockRepository.takeAll):
 * the conditional upsert of the counts, and the check that lets it carry
 * its transaction's COMMIT. Both prepared: every stocked order sends them.
 */

const db = queryBuilder<{ stockCounts: Table<StockCountEntity, 'taken' | 'adjusted'> }>();

/** An item's portions an order takes from one period. */
export type WantedPortions = {
  itemUuid: string;
  period: string;
  portions: number;
  /** The item's `extra_data.stock.quantity`. */
  quantity: number;
};

const WANTED_TYPES = {
  itemUuid: 'uuid',
  period: 'text',
  portions: 'int',
  quantity: 'int',
} as const;

export const inItemOrder = (wanted: readonly WantedPortions[]) =>
  [...wanted].sort((a, b) => (a.itemUuid < b.itemUuid ? -1 : 1));

/** The take of takeAll (prepared): one conditional upsert of the counts, `rows` in item order. */
export const takeStatement = preparedQuery(
  ({ businessUuid, rows }: { businessUuid: string; rows: WantedPortions[] }) => {
    // The item's row of `wanted`, for the existing row's update (EXCLUDED holds only columns).
    const wantedOf = (column: 'portions' | 'quantity') =>
      sql<number>`(SELECT ${sql.ref(`w.${column}`)} FROM wanted w WHERE w.item_uuid = excluded.item_uuid)`;
    return db
      .with('wanted', (qb) => qb.selectFrom(rowsTable(rows, WANTED_TYPES, 'w')).selectAll())
      .insertInto('stockCounts')
      .columns(['itemUuid', 'period', 'businessUuid', 'taken'])
      .expression((eb) =>
        eb
          .selectFrom('wanted')
          .select([
            'itemUuid',
            'period',
            sql<string>`${businessUuid}::uuid`.as('businessUuid'),
            sql<number>`CASE WHEN portions <= quantity THEN portions ELSE 0 END`.as('taken'),
          ])
          .orderBy('itemUuid'),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['itemUuid', 'period'])
          .doUpdateSet({ taken: sql<number>`stock_counts.taken + ${wantedOf('portions')}` })
          .where(
            sql<boolean>`stock_counts.taken + ${wantedOf('portions')} <= ${wantedOf('quantity')} + stock_counts.adjusted`,
          ),
      )
      .returning(['itemUuid', 'taken', 'adjusted']);
  },
);

/** An item's portions asked, its quantity and its low threshold, as the take's check reads them. */
type ThresholdRow = {
  itemUuid: string;
  portions: number;
  quantity: number;
  lowAt: number;
};

const THRESHOLD_TYPES = {
  itemUuid: 'uuid',
  portions: 'int',
  quantity: 'int',
  lowAt: 'int',
} as const;

/**
 * Whether the take (its rows named `lead`) left `then` nothing to do
 * (prepared): every item took all its portions, and none crossed its low
 * threshold or ran out. The same rules as the service's: remaining is
 * max(0, quantity + adjusted − taken); low when it falls from above
 * `low_at` to at most it; sold out when it falls to 0.
 */
export const takeSettled = preparedQuery(({ rows }: { rows: ThresholdRow[] }) => {
  const remaining = sql`GREATEST(0, w.quantity + l.adjusted - l.taken)`;
  return noTables.selectNoFrom(
    sql<boolean>`NOT EXISTS (SELECT 1 FROM ${rowsTable(rows, THRESHOLD_TYPES, 'w')}
      LEFT JOIN lead l ON l.item_uuid = w.item_uuid
      WHERE l.item_uuid IS NULL
         OR l.taken < w.portions
         OR (${remaining} + w.portions > w.low_at AND ${remaining} <= w.low_at)
         OR ${remaining} <= 0)`.as('settled'),
  );
});
