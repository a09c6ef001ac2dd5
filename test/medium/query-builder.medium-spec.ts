import { getMetadataArgsStorage } from 'typeorm';
import {
  execute,
  fetchAll,
  fetchOne,
  jsonb,
  queryBuilder,
  rowsTable,
  sql,
  Table,
} from '../../src/database/query-builder';
import { preparedQuery } from '../../src/database/prepared-query';
import { ENTITIES } from '../../src/entities';
import { createMediumContext, MediumContext } from '../support/medium';

interface Sample {
  id: number;
  createdAt: Date;
  totalAmount: string;
  extraData: Record<string, unknown> | null;
  tags: unknown;
}
const db = queryBuilder<{ sampleRows: Table<Sample, 'id' | 'createdAt'> }>();

/** How the service's queries reach PostgreSQL: compiled here, run through the caller's manager. */
describe('the query builder', () => {
  let ctx: MediumContext;

  beforeAll(async () => {
    ctx = await createMediumContext();
    await ctx.sql(`CREATE TABLE sample_rows (id serial PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now(), total_amount numeric(14,2) NOT NULL,
      extra_data jsonb, tags jsonb)`);
  });
  afterAll(() => ctx?.close());

  it('writes and reads rows in camelCase, jsonb documents and arrays kept as sent', async () => {
    const manager = ctx.dataSource.manager;
    const inserted = await fetchOne(
      manager,
      db
        .insertInto('sampleRows')
        .values({
          totalAmount: '12.50',
          extraData: jsonb({ nested_key: { deeper_key: 1 } }),
          tags: jsonb(['a', 'b']),
        })
        .returningAll(),
    );
    expect(inserted).toEqual({
      id: expect.any(Number),
      createdAt: expect.any(Date),
      totalAmount: '12.50',
      extraData: { nested_key: { deeper_key: 1 } },
      tags: ['a', 'b'],
    });
    await fetchOne(
      manager,
      db
        .insertInto('sampleRows')
        .values({ totalAmount: '1.00', extraData: jsonb(null), tags: null }),
    );
    const nulls = await fetchAll(
      manager,
      db.selectFrom('sampleRows').select(['id', 'extraData']).where('extraData', 'is', null),
    );
    expect(nulls).toHaveLength(1);
  });

  it('answers the rows an UPDATE changes, and counts them', async () => {
    const manager = ctx.dataSource.manager;
    const changed = await fetchAll(
      manager,
      db
        .updateTable('sampleRows')
        .set({ totalAmount: '2.00' })
        .where('totalAmount', '=', '1.00')
        .returning(['id', 'totalAmount']),
    );
    expect(changed).toEqual([{ id: expect.any(Number), totalAmount: '2.00' }]);
    expect(await execute(manager, db.updateTable('sampleRows').set({ totalAmount: '3.00' }))).toBe(
      2,
    );
    expect(await execute(manager, db.deleteFrom('sampleRows').where('id', '<', 0))).toBe(0);
  });

  it('joins the caller’s transaction: a rollback takes the write with it', async () => {
    await expect(
      ctx.dataSource.transaction(async (manager) => {
        await execute(
          manager,
          db.insertInto('sampleRows').values({ totalAmount: '9.00', extraData: null, tags: null }),
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = await fetchAll(
      ctx.dataSource.manager,
      db.selectFrom('sampleRows').select('id').where('totalAmount', '=', '9.00'),
    );
    expect(rows).toEqual([]);
  });

  it('a prepared query is built once a shape, and each run writes and answers its own values', async () => {
    const manager = ctx.dataSource.manager;
    interface Args {
      row: { totalAmount: string; extraData?: Record<string, unknown> | null };
      tags: unknown;
      amounts: Array<{ amount: string; note: Record<string, unknown> | null }>;
    }
    let builds = 0;
    const insert = preparedQuery(
      ({ row, tags, amounts }: Args) => {
        builds++;
        const { extraData, ...columns } = row;
        return db
          .with('v', (qb) =>
            qb
              .selectFrom(rowsTable(amounts, { amount: 'numeric', note: 'jsonb' }, 'r'))
              .select([
                sql<string>`sum(r.amount)::text`.as('sum'),
                sql`json_agg(r.note)`.as('notes'),
              ]),
          )
          .insertInto('sampleRows')
          .values({
            ...columns,
            ...(extraData === undefined ? {} : { extraData: jsonb(extraData) }),
            tags: jsonb(tags),
          })
          .returning((eb) => [
            'totalAmount',
            'extraData',
            'tags',
            eb.selectFrom('v').select('sum').as('sum'),
            eb.selectFrom('v').select('notes').as('notes'),
          ]);
      },
      { expand: ['row'] },
    );
    const first = await fetchOne(
      manager,
      insert({
        row: { totalAmount: '4.25', extraData: { a: [1, 2] } },
        tags: ['x'],
        amounts: [
          { amount: '1.50', note: { n: 1 } },
          { amount: '2.00', note: null },
        ],
      }),
    );
    const second = await fetchOne(
      manager,
      insert({
        row: { totalAmount: '5.75', extraData: null },
        tags: null,
        amounts: [{ amount: '0.25', note: { n: 3 } }],
      }),
    );
    expect(first).toEqual({
      totalAmount: '4.25',
      extraData: { a: [1, 2] },
      tags: ['x'],
      sum: '3.50',
      notes: [{ n: 1 }, null],
    });
    expect(second).toEqual({
      totalAmount: '5.75',
      extraData: null,
      tags: null,
      sum: '0.25',
      notes: [{ n: 3 }],
    });
    expect(builds).toBe(1);
    // Another set of the record's keys is another shape: the column left out keeps its default.
    const third = await fetchOne(
      manager,
      insert({ row: { totalAmount: '6.00' }, tags: [], amounts: [] }),
    );
    expect(third).toEqual({
      totalAmount: '6.00',
      extraData: null,
      tags: [],
      sum: null,
      notes: null,
    });
    expect(builds).toBe(2);
    await fetchOne(manager, insert({ row: { totalAmount: '7.00' }, tags: 1, amounts: [] }));
    expect(builds).toBe(2);
  });

  it('every entity names its columns in snake_case of its properties, as the builder maps them', () => {
    const entities = new Set<unknown>(ENTITIES);
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const wrong = getMetadataArgsStorage()
      .columns.filter((column) => entities.has(column.target))
      .filter(
        (column) => (column.options.name ?? column.propertyName) !== snake(column.propertyName),
      )
      .map((column) => `${(column.target as { name: string }).name}.${column.propertyName}`);
    expect(wrong).toEqual([]);
  });
});
