import {
  CamelCasePlugin,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { queryBuilder, snakeCase, sql } from './query-builder';

/** The builder as it was written before: Kysely's compiler with its CamelCasePlugin. */
function withPlugin(): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
}

const NAMES = [
  'uuid',
  'orderUuid',
  'lineTotal2',
  'id2Name',
  'orderUUID',
  'fooBAR',
  'HTTPServer',
  'aB',
  'a',
  'x_y',
  'already_snake',
  'jsonB',
  'Été',
  'émisLe',
];

describe('snake_case identifiers', () => {
  it.each(NAMES)('writes %s as the CamelCasePlugin does', (name) => {
    const ours = queryBuilder<any>().selectFrom(name).select(name).compile().sql;
    const theirs = withPlugin().selectFrom(name).select(name).compile().sql;
    expect(ours).toBe(theirs);
    expect(ours).toContain(`"${snakeCase(name)}"`);
  });

  it('compiles inserts, updates, joins, aliases and raw references alike', () => {
    const build = (db: Kysely<any>) => [
      db
        .insertInto('orderLines')
        .values({ orderUuid: 'o', lineTotal: '1.00', itemNote: null })
        .onConflict((oc) => oc.columns(['orderUuid', 'position']).doNothing())
        .returningAll(),
      db
        .updateTable('stockCounts')
        .set({ takenCount: sql`${sql.ref('takenCount')} + 1` })
        .where('itemUuid', '=', 'i')
        .returning(['takenCount as leftOver']),
      db
        .selectFrom('orders as o')
        .innerJoin('orderEvents as e', 'e.orderUuid', 'o.uuid')
        .select(['o.businessUuid', sql<number>`count(*)`.as('eventCount')])
        .where('o.createdAt', '>', new Date(0))
        .groupBy('o.businessUuid')
        .orderBy('o.businessUuid'),
    ];
    const ours = build(queryBuilder<any>()).map((query) => query.compile());
    const theirs = build(withPlugin()).map((query) => query.compile());
    expect(ours.map((query) => query.sql)).toEqual(theirs.map((query) => query.sql));
    expect(ours.map((query) => query.parameters)).toEqual(theirs.map((query) => query.parameters));
  });
});
