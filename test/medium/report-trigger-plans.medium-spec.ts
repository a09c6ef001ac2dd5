import { QueryRunner } from 'typeorm';
import { OrderRepository } from '../../src/order/order.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { newEntity, newUser } from '../support/medium-factory';
import { growOrders, newOrderFields, orderLine } from '../support/medium-orders';

interface TableReads {
  seq_scan: number;
  seq_tup_read: number;
  idx_scan: number;
}

/**
 * The report triggers on orders and order_lines run in the session of the
 * statement that fires them, and a statement of a PL/pgSQL function keeps
 * its plan for the session. A session that placed and accepted its first
 * orders while the tables were small must still read one order, and one
 * order's lines, by their keys once the tables have grown: the tables are
 * never analyzed here, as the embedded database never is. One connection
 * (a pool of one), so that every statement runs in the session that ran
 * the first ones.
 */
describe('report triggers as the orders grow (medium)', () => {
  let ctx: MediumContext;
  let orders: OrderRepository;
  let runner: QueryRunner;
  let owner: string;
  let business: string;

  const place = async (): Promise<string> => {
    const { order } = await orders.insertPlacedOrder(
      runner.manager,
      newOrderFields(owner, business),
      [orderLine(0), orderLine(1)],
      'guest',
    );
    return order.uuid;
  };

  /**
   * What this session read of `table` and has not yet reported: within one
   * transaction nothing is reported, so the difference of two readings is
   * what the statements between them read.
   */
  const reads = async (table: string): Promise<TableReads> => {
    const [row] = (await runner.query(
      `SELECT seq_scan::int, seq_tup_read::int, COALESCE(idx_scan, 0)::int AS idx_scan
         FROM pg_stat_xact_user_tables WHERE relid = $1::regclass`,
      [table],
    )) as TableReads[];
    return row;
  };

  const itemDeltas = async (): Promise<number> => {
    const [{ n }] = (await runner.query(
      `SELECT count(*)::int AS n FROM report_item_deltas WHERE business_uuid = $1`,
      [business],
    )) as Array<{ n: number }>;
    return n;
  };

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [OrderRepository] }, { DATABASE_POOL_SIZE: '1' });
    orders = ctx.get(OrderRepository);
    owner = (await newUser(ctx)).uuid;
    business = (await newEntity(ctx, 'business', owner)).uuid;
    runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
    // The session's first placements and acceptances, on tables of a few rows.
    for (let i = 0; i < 3; i++) {
      const uuid = await place();
      await orders.updateOrder(runner.manager, uuid, { status: 'accepted' });
    }
    const model = await place();
    // Then 3,000 more orders of two lines each, as copies of the last one.
    await growOrders((text, params) => runner.query(text, params), model, 3000);
  });
  afterAll(async () => {
    await runner?.release();
    await ctx?.close();
  });

  it('a placement reads its order by key, not every order', async () => {
    await runner.startTransaction();
    try {
      const before = await reads('orders');
      await place();
      const after = await reads('orders');
      expect(after.seq_tup_read - before.seq_tup_read).toBe(0);
      expect(after.idx_scan - before.idx_scan).toBeGreaterThan(0);
    } finally {
      await runner.rollbackTransaction();
    }
  });

  it("an acceptance reads its order's lines by key, not every line, and counts them for the reports", async () => {
    const uuid = await place();
    const deltas = await itemDeltas();
    await runner.startTransaction();
    try {
      const before = await reads('order_lines');
      await orders.updateOrder(runner.manager, uuid, { status: 'accepted' });
      const after = await reads('order_lines');
      expect(after.seq_tup_read - before.seq_tup_read).toBe(0);
      expect(after.idx_scan - before.idx_scan).toBeGreaterThan(0);
      // One delta row for each of the order's two items.
      expect((await itemDeltas()) - deltas).toBe(2);
    } finally {
      await runner.rollbackTransaction();
    }
  });
});
