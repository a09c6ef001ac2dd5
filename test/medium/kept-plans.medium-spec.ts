import { EntityManager } from 'typeorm';
import { EventBus } from '../../src/database/event-bus';
import { PLAN_KEPT } from '../../src/database/kept-plans';
import { together } from '../../src/database/pipelined-client';
import {
  runAllAndCommit,
  startTransactionLazily,
} from '../../src/database/transaction-round-trips';
import { OrderRepository } from '../../src/order/order.repository';
import { PaymentRepository } from '../../src/payment/payment.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { newEntity, newUser } from '../support/medium-factory';
import { growOrders, newOrderFields, orderLine } from '../support/medium-orders';

interface Settings {
  mode: string;
  seqscan: string;
}

interface Prepared {
  name: string;
  statement: string;
  generic: number;
  custom: number;
  params: number;
}

const SETTINGS = `SELECT current_setting('plan_cache_mode') AS mode,
  current_setting('enable_seqscan') AS seqscan, $1::int AS n`;
const KEPT: Settings = { mode: 'force_generic_plan', seqscan: 'off' };
const AT_EACH_RUN: Settings = { mode: 'force_custom_plan', seqscan: 'on' };

/**
 * Statements marked by keepPlan: inside a transaction each runs with its
 * plan kept (force_generic_plan, sequential scans off) and every other
 * statement as before; the marked writes of an order's placement and of a
 * card checkout's outcome, planned on tables of a page, still read by key
 * once the tables have grown. One connection (a pool of one): the plans a
 * statement made are there for the next.
 */
describe('kept plans (medium)', () => {
  let ctx: MediumContext;
  let bus: EventBus;
  let orders: OrderRepository;
  let payments: PaymentRepository;
  let owner: string;
  let business: string;

  const settings = async (manager: EntityManager, text: string): Promise<Settings> => {
    const [row] = (await manager.query(text, [1])) as Array<Settings & { n: number }>;
    return { mode: row.mode, seqscan: row.seqscan };
  };

  const place = (manager: EntityManager) =>
    orders.insertPlacedOrder(
      manager,
      newOrderFields(owner, business),
      [orderLine(0), orderLine(1)],
      'guest',
    );

  /** A card order whose checkout opens: its payment's change and the order's, held and sent with the COMMIT. */
  const openCheckout = async (): Promise<void> => {
    const { order } = await bus.transaction((tx) => place(tx.manager));
    const payment = await bus.transaction((tx) =>
      payments.insert(tx.manager, {
        orderUuid: order.uuid,
        businessUuid: business,
        method: 'paystack',
        channel: 'checkout',
        amount: order.amount,
        currency: 'NGN',
        reference: `${order.orderReference}-1`,
      }),
    );
    await bus.transaction(async (tx) => {
      await payments.replacePendingBeforeCommit(
        tx.manager,
        { uuid: payment.uuid, lockKey: order.uuid },
        { authorizationUrl: 'https://checkout.example.test/x', accessCode: 'x', error: null },
        { orderUuid: order.uuid },
      );
      await orders.updatePaymentModelLast(
        tx.manager,
        order.uuid,
        {
          paymentState: 'pending',
          paymentStatus: 'unpaid',
          amountPaid: '0.00',
          amountRefunded: '0.00',
        },
        [
          {
            field: 'payment',
            fromValue: 'unpaid',
            toValue: 'pending',
            actorUuid: null,
            actor: 'system',
          },
        ],
        () => undefined,
      );
    });
  };

  /** The marked statements of orders and payments this connection has prepared. */
  const keptStatements = (): Promise<Prepared[]> =>
    bus.transaction(
      async (tx) =>
        (await tx.manager.query(
          `SELECT name, statement, generic_plans::int AS generic, custom_plans::int AS custom,
                  cardinality(parameter_types)::int AS params
             FROM pg_prepared_statements
            WHERE statement LIKE $1 AND statement ~ '"(orders|payments)"'`,
          [`${PLAN_KEPT}%`],
        )) as Prepared[],
    );

  /** The plan each of `statements` keeps, as EXPLAIN shows it under the kept settings. */
  const keptPlanOf = (statement: Prepared): Promise<string> =>
    bus.transaction(async (tx) => {
      await tx.manager.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      await tx.manager.query(`SET LOCAL enable_seqscan = off`);
      const nulls = Array.from({ length: statement.params }, () => 'NULL').join(', ');
      const rows = (await tx.manager.query(
        `EXPLAIN EXECUTE ${statement.name}(${nulls})`,
      )) as Array<{ 'QUERY PLAN': string }>;
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  /** What this transaction has read of `table` so far. */
  const reads = async (manager: EntityManager, table: string) => {
    const [row] = (await manager.query(
      `SELECT seq_tup_read::int AS seq, COALESCE(idx_scan, 0)::int AS idx
         FROM pg_stat_xact_user_tables WHERE relid = $1::regclass`,
      [table],
    )) as Array<{ seq: number; idx: number }>;
    return row;
  };

  beforeAll(async () => {
    ctx = await createMediumContext(
      { providers: [OrderRepository, PaymentRepository] },
      { DATABASE_POOL_SIZE: '1' },
    );
    bus = ctx.get(EventBus);
    orders = ctx.get(OrderRepository);
    payments = ctx.get(PaymentRepository);
    owner = (await newUser(ctx)).uuid;
    business = (await newEntity(ctx, 'business', owner)).uuid;
  });
  afterAll(() => ctx?.close());

  it('runs a marked statement with its plan kept, and the statements around it as before', async () => {
    const marked = `${PLAN_KEPT}${SETTINGS}`;
    const seen = await bus.transaction(async (tx) => {
      const first = await settings(tx.manager, marked); // carries the BEGIN
      const after = await settings(tx.manager, SETTINGS);
      const middle = await settings(tx.manager, marked);
      const [issued, beside] = await together(
        settings(tx.manager, marked),
        settings(tx.manager, SETTINGS),
      );
      const last = await settings(tx.manager, SETTINGS);
      return { first, after, middle, issued, beside, last };
    });
    expect(seen).toEqual({
      first: KEPT,
      after: AT_EACH_RUN,
      middle: KEPT,
      issued: KEPT,
      beside: AT_EACH_RUN,
      last: AT_EACH_RUN,
    });
    // Outside a transaction a marked statement runs as any other.
    expect(await settings(ctx.dataSource.manager, marked)).toEqual(AT_EACH_RUN);
    // And the session is as it was after the transaction.
    expect(await settings(ctx.dataSource.manager, SETTINGS)).toEqual(AT_EACH_RUN);
  });

  it('sends the last statements of a transaction with its COMMIT, each under its own settings', async () => {
    await ctx.sql(`CREATE TABLE kept_probe (n int PRIMARY KEY, mode text, seqscan text)`);
    const probe = `INSERT INTO kept_probe
      SELECT $1::int, current_setting('plan_cache_mode'), current_setting('enable_seqscan')`;
    const marked = `${PLAN_KEPT}${probe}`;
    const runner = ctx.dataSource.createQueryRunner();
    try {
      await startTransactionLazily(runner);
      await runner.manager.query(probe, [1]);
      await runAllAndCommit(
        runner.manager,
        [marked, marked, probe, marked, probe].map((sql, i) => ({ sql, parameters: [i + 2] })),
      );
    } finally {
      await runner.release();
    }
    const rows = await ctx.sql<{ n: number; mode: string; seqscan: string }>(
      `SELECT n, mode, seqscan FROM kept_probe ORDER BY n`,
    );
    expect(rows.map(({ mode, seqscan }) => ({ mode, seqscan }))).toEqual([
      AT_EACH_RUN,
      KEPT,
      KEPT,
      AT_EACH_RUN,
      KEPT,
      AT_EACH_RUN,
    ]);
    expect(await settings(ctx.dataSource.manager, SETTINGS)).toEqual(AT_EACH_RUN);
  });

  it('sends a marked statement in the order it was issued beside others', async () => {
    await ctx.sql(`CREATE SEQUENCE kept_order_probe`);
    const next = (manager: EntityManager, text: string) =>
      manager.query(text, [1]).then((rows: Array<{ n: string }>) => Number(rows[0].n));
    const plain = `SELECT nextval('kept_order_probe') AS n, $1::int AS one`;
    const marked = `${PLAN_KEPT}${plain}`;
    const order = await bus.transaction(async (tx) => {
      await next(tx.manager, plain); // carries the BEGIN
      return together(
        next(tx.manager, plain),
        next(tx.manager, marked),
        next(tx.manager, plain),
        next(tx.manager, marked),
      );
    });
    expect(order).toEqual([2, 3, 4, 5]);
  });

  it('plans a marked statement once on a connection, and every other at each run', async () => {
    const text = `${PLAN_KEPT}SELECT $1::int + 1 AS n /* kept probe */`;
    const plain = `SELECT $1::int + 2 AS n /* plain probe */`;
    for (let i = 0; i < 4; i++) {
      await bus.transaction(async (tx) => {
        await tx.manager.query(text, [i]);
        await tx.manager.query(plain, [i]);
      });
    }
    const prepared = await bus.transaction(
      async (tx) =>
        (await tx.manager.query(
          `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom
             FROM pg_prepared_statements WHERE statement LIKE '%probe */' ORDER BY statement`,
        )) as Array<{ statement: string; generic: number; custom: number }>,
    );
    // Named from their second run on: three runs each under the name, the marked one on its kept plan.
    expect(prepared).toEqual([
      { statement: text, generic: 3, custom: 0 },
      { statement: plain, generic: 0, custom: 3 },
    ]);
  });

  it("keeps the placement's and the checkout's plans made on small tables to reading by key as the tables grow", async () => {
    // The first orders, and statistics gathered while the tables hold a page each (as
    // autovacuum would): a sequential scan is then the cheapest way to read any of them.
    await openCheckout();
    await ctx.sql(`ANALYZE orders, order_lines, order_events, payments`);
    // The connection's placements and checkouts since: their plans are made now.
    for (let i = 0; i < 3; i++) await openCheckout();
    // Then 3,000 more orders with their lines and open checkouts, as copies of the last.
    const [model] = await ctx.sql<{ uuid: string }>(
      `SELECT uuid FROM orders ORDER BY created_at DESC LIMIT 1`,
    );
    await growOrders((text, params) => ctx.sql(text, params), model.uuid, 3000);
    await ctx.sql(
      `INSERT INTO payments (uuid, order_uuid, business_uuid, method, channel, status, amount,
                             currency, reference, next_check_at)
       SELECT gen_random_uuid(), o.uuid, o.business_uuid, 'paystack', 'checkout', 'pending',
              o.amount, 'NGN', o.order_reference || '-1', now()
         FROM orders o WHERE o.order_reference LIKE 'GROWN-%'`,
    );

    // A placement, its foreign-key checks included, reads no order but by key.
    const placed = await bus.transaction(async (tx) => {
      const before = await reads(tx.manager, 'orders');
      await place(tx.manager);
      return { before, after: await reads(tx.manager, 'orders') };
    });
    expect(placed.after.seq - placed.before.seq).toBe(0);
    expect(placed.after.idx - placed.before.idx).toBeGreaterThan(0);

    await openCheckout();
    const kept = await keptStatements();
    // The placement, the payment's change and the order's, each planned once and kept.
    expect(kept.length).toBeGreaterThanOrEqual(3);
    for (const statement of kept) {
      expect(statement.generic).toBeGreaterThan(0);
      expect(statement.custom).toBe(0);
      const plan = await keptPlanOf(statement);
      expect(plan).not.toMatch(/Seq Scan on (orders|order_lines|order_events|payments)\b/);
      // The order's other open checkouts are found by the order, not among every open one.
      expect(plan).not.toMatch(/payments_check_due_idx/);
    }
  });
});
