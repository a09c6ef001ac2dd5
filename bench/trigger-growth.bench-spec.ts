/**
 * What a placement and an acceptance cost as the orders grow, in one
 * database session whose first orders were placed and accepted on nearly
 * empty tables, with the report triggers as migrated and with the triggers
 * as first written (their statements kept the plan of their first run in
 * the session). Nothing is analyzed, as on the embedded database.
 *
 *   npm run bench:trigger-growth                     # the embedded database
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:trigger-growth
 *
 * Each size: orders (two lines each) copied in by SQL, then 200 placements
 * of five lines and 200 acceptances timed one after the other, after 20 of
 * each unmeasured. Prints milliseconds of wall time per call. Times nothing
 * in `npm test`.
 */
import { QueryRunner } from 'typeorm';
import { LINES_TRIGGER, ORDERS_TRIGGER } from '../migrations/sql/order-report-rollups';
import { OrderRepository } from '../src/order/order.repository';
import { createMediumContext } from '../test/support/medium';
import { newEntity, newUser } from '../test/support/medium-factory';
import { newOrderFields, orderLine } from '../test/support/medium-orders';

const SIZES = [0, 2_000, 10_000, 50_000];
const MEASURED = 200;
const WARM = 20;

type Figures = Map<number, { placement: number; acceptance: number }>;

async function measure(firstWritten: boolean): Promise<Figures> {
  const ctx = await createMediumContext(
    { providers: [OrderRepository] },
    { DATABASE_POOL_SIZE: '1' },
  );
  const orders = ctx.get(OrderRepository);
  const owner = (await newUser(ctx)).uuid;
  const business = (await newEntity(ctx, 'business', owner)).uuid;
  // The pool's one connection from here: every statement runs in this session.
  const runner: QueryRunner = ctx.dataSource.createQueryRunner();
  await runner.connect();
  const figures: Figures = new Map();
  try {
    if (firstWritten) {
      for (const sql of [LINES_TRIGGER, ORDERS_TRIGGER]) {
        await runner.query(sql.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
      }
    }
    const place = async (lines: number) =>
      (
        await orders.insertPlacedOrder(
          runner.manager,
          newOrderFields(owner, business),
          Array.from({ length: lines }, (_, i) => orderLine(i)),
          'guest',
        )
      ).order.uuid;
    const accept = (uuid: string) =>
      orders.updateOrder(runner.manager, uuid, { status: 'accepted' });
    // The session's first placements and acceptances, on tables of a few rows.
    for (let i = 0; i < 10; i++) await accept(await place(5));
    const model = await place(2);
    let stored = 0;
    for (const size of SIZES) {
      if (size > stored) {
        const label = `G${size}-`;
        await runner.query(
          `INSERT INTO orders SELECT (jsonb_populate_record(o, jsonb_build_object(
              'uuid', gen_random_uuid(), 'order_reference', $3 || g))).*
             FROM orders o, generate_series(1, $2::int) g WHERE o.uuid = $1`,
          [model, size - stored, label],
        );
        await runner.query(
          `INSERT INTO order_lines SELECT (jsonb_populate_record(l, jsonb_build_object(
              'uuid', gen_random_uuid(), 'order_uuid', o.uuid))).*
             FROM order_lines l, orders o
            WHERE l.order_uuid = $1 AND o.order_reference LIKE $2 || '%'`,
          [model, label],
        );
        stored = size;
      }
      const placed: string[] = [];
      for (let i = 0; i < WARM; i++) placed.push(await place(5));
      let started = process.hrtime.bigint();
      for (let i = 0; i < MEASURED; i++) placed.push(await place(5));
      const placement = Number(process.hrtime.bigint() - started) / 1e6 / MEASURED;
      for (const uuid of placed.slice(0, WARM)) await accept(uuid);
      started = process.hrtime.bigint();
      for (const uuid of placed.slice(WARM)) await accept(uuid);
      const acceptance = Number(process.hrtime.bigint() - started) / 1e6 / MEASURED;
      figures.set(size, { placement, acceptance });
    }
  } finally {
    await runner.release();
    await ctx.close();
  }
  return figures;
}

describe('report triggers as the orders grow', () => {
  it('prints a placement and an acceptance, in ms, by orders stored', async () => {
    const migrated = await measure(false);
    const firstWritten = await measure(true);
    const server = process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'embedded database';
    const rows = SIZES.map((size) => {
      const a = migrated.get(size)!;
      const b = firstWritten.get(size)!;
      return `| ${size.toLocaleString('en')} | ${a.placement.toFixed(2)} | ${b.placement.toFixed(2)} | ${a.acceptance.toFixed(2)} | ${b.acceptance.toFixed(2)} |`;
    });
    process.stdout.write(
      [
        '',
        `Report triggers as the orders grow (${server}, one session, tables not analyzed), ms a call:`,
        '',
        '| orders stored | placement | placement, first triggers | acceptance | acceptance, first triggers |',
        '| ---: | ---: | ---: | ---: | ---: |',
        ...rows,
        '',
      ].join('\n'),
    );
    expect(migrated.size).toBe(SIZES.length);
  }, 1_800_000);
});
