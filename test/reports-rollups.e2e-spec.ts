import { ReportRepository } from '../src/report/report.repository';
import { Catalog, newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrder, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const ALL_DAY = [['00:00', '24:00']];
const WEEKLY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ALL_DAY]),
);
const GROUPS = ['day', 'hour', 'weekday', 'month'];

/** The rollup tables of one business, as rows whose measures are not all zero. */
const ROLLUP_TABLES: Record<string, string> = {
  report_sales_slots: 'slot',
  report_sales_days: 'day, payment_processor, fulfilment_type',
  report_item_days: 'day, item_uuid, title_name',
  report_option_days: 'day, item_uuid, "group", option, option_title',
};

// R62: reports.
/**
 * The reports read rollups the database keeps (per 15-minute UTC slot and
 * per UTC day, folded from deltas its triggers append). Whatever happens to
 * the orders, each answer must be the one computed from the orders
 * themselves: checked for every grouping and the items report, in a zone
 * half an hour off UTC and in one changing its clocks, with orders on both
 * sides of the period's local midnights.
 */
describe('reports: the rollups answer exactly as the orders do', () => {
  let t: TestApp;
  let owner: TestUser;
  let repository: ReportRepository;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    repository = t.app.get(ReportRepository);
  });

  afterAll(async () => {
    await t?.close();
  });

  function catalogIn(timezone: string): Promise<Catalog> {
    return newCatalog(t, owner, {
      business: { extra_data: { opening_hours: { timezone, weekly: WEEKLY } } },
      items: [
        {
          title_name: 'Jollof',
          extra_data: {
            unit_price_amount: '10.00',
            option_groups: [
              {
                key: 'size',
                title: 'Size',
                min_selected: 0,
                max_selected: 1,
                options: [
                  { key: 'large', title: 'Large', price_delta: '1.50' },
                  { key: 'small', title: 'Small', price_delta: '0' },
                ],
              },
            ],
          },
        },
        { title_name: 'Suya', extra_data: { unit_price_amount: '4.10' } },
        { title_name: 'Zobo', extra_data: { unit_price_amount: '1.25' } },
      ],
    });
  }

  /** The total the server computes for a body (asked by sending a wrong one). */
  async function computedTotal(body: Record<string, unknown>): Promise<string> {
    const res = await t.http
      .post(`${t.orders}/order`)
      .set(guestHeaders(t))
      .send({ ...body, amount: 999999 });
    return String(res.body.error.details[0].computed_total);
  }

  /** Places an order of `cart` through the API, moves it through `moves`, then dates it. */
  async function order(
    catalog: Catalog,
    createdAt: string,
    moves: string[],
    cart: Array<Record<string, unknown>>,
    extra: { processor?: string; fulfilment?: string; refunded?: string } = {},
  ): Promise<string> {
    const body = orderBody(catalog, { cart_items: cart });
    body.amount = await computedTotal(body);
    const placed = await placeOrder(t, body);
    for (const status of moves) {
      expectOk(await updateOrderRequest(t, owner.headers, placed.uuid, { status }));
    }
    await t.dataSource.query(
      `UPDATE orders SET created_at = $2, payment_processor = COALESCE($3, payment_processor),
              fulfilment_type = COALESCE($4, fulfilment_type),
              amount_refunded = COALESCE($5::numeric, amount_refunded)
        WHERE uuid = $1`,
      [
        placed.uuid,
        createdAt,
        extra.processor ?? null,
        extra.fulfilment ?? null,
        extra.refunded ?? null,
      ],
    );
    return placed.uuid;
  }

  /** The answer of a report path, then the same answer computed from the orders. */
  async function bothWays(path: string, query: Record<string, unknown>): Promise<[any, any]> {
    const viaRollups = expectOk(await t.http.get(path).query(query).set(owner.headers));
    const sales = repository.sales.bind(repository);
    const items = repository.items.bind(repository);
    const salesSpy = jest
      .spyOn(repository, 'sales')
      .mockImplementation((b, r, g, z) => sales(b, r, g, z, true));
    const itemsSpy = jest
      .spyOn(repository, 'items')
      .mockImplementation((b, r, l, z) => items(b, r, l, z, true));
    try {
      const fromOrders = expectOk(await t.http.get(path).query(query).set(owner.headers));
      return [viaRollups, fromOrders];
    } finally {
      salesSpy.mockRestore();
      itemsSpy.mockRestore();
    }
  }

  async function expectSameAnswers(business: string, period: { from: string; to: string }) {
    const base = `${t.core}/businesses/${business}/reports`;
    for (const group_by of GROUPS) {
      const [rollups, orders] = await bothWays(`${base}/sales`, { ...period, group_by });
      expect(JSON.stringify(rollups)).toBe(JSON.stringify(orders));
    }
    for (const limit of [1, 50]) {
      const [rollups, orders] = await bothWays(`${base}/items`, { ...period, limit });
      expect(JSON.stringify(rollups)).toBe(JSON.stringify(orders));
    }
  }

  /** The business's rollups once folded, then rebuilt from its orders: they must not differ. */
  async function expectRollupsMatchRebuild(business: string) {
    await t.dataSource.query('SELECT report_rollups_fold($1)', [business]);
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const [table, key] of Object.entries(ROLLUP_TABLES)) {
        const rows: Array<Record<string, unknown>> = await t.dataSource.query(
          `SELECT * FROM ${table} WHERE business_uuid = $1 ORDER BY ${key}`,
          [business],
        );
        out[table] = rows.filter((row) =>
          Object.entries(row).some(
            ([column, value]) =>
              !['business_uuid', 'last_at', ...key.replace(/"/g, '').split(', ')].includes(
                column,
              ) && Number(value) !== 0,
          ),
        );
      }
      return out;
    };
    const folded = await snapshot();
    await t.dataSource.query('SELECT report_rollups_rebuild($1)', [business]);
    expect(await snapshot()).toEqual(folded);
  }

  async function history(catalog: Catalog, at: (slot: number) => string): Promise<string[]> {
    const [jollof, suya, zobo] = catalog.items;
    const large = [{ group: 'size', option: 'large' }];
    const small = [{ group: 'size', option: 'small' }];
    const uuids: string[] = [];
    const cart = (n: number) => [
      { uuid: jollof.uuid, quantity: 1 + (n % 3), options: n % 2 ? large : small },
      { uuid: suya.uuid, quantity: 1 + (n % 2) },
      ...(n % 4 === 0 ? [{ uuid: zobo.uuid, quantity: 3 }] : []),
    ];
    const moves = [
      ['accepted', 'ready', 'completed'],
      ['accepted'],
      [],
      ['rejected'],
      ['cancelled'],
      ['accepted', 'cancelled'],
      ['accepted', 'preparing', 'ready', 'out_for_delivery', 'completed'],
    ];
    for (let n = 0; n < 14; n++) {
      uuids.push(
        await order(catalog, at(n), moves[n % moves.length], cart(n), {
          processor: n % 3 === 0 ? 'paystack' : undefined,
          fulfilment: ['pickup', 'dine_in', 'delivery'][n % 3],
          refunded: n === 7 ? '3.05' : undefined,
        }),
      );
    }
    return uuids;
  }

  const zones: Array<[string, { from: string; to: string }, string[]]> = [
    [
      // Local midnight of the 1st is 18:30 UTC on the 28th; of the 11th, 18:30 UTC on the 10th.
      'Asia/Kolkata',
      { from: '2026-03-01', to: '2026-03-10' },
      [
        '2026-02-28T18:29:59Z',
        '2026-02-28T18:30:00Z',
        '2026-02-28T23:59:59Z',
        '2026-03-01T00:00:00Z',
        '2026-03-01T18:44:59Z',
        '2026-03-05T12:00:00Z',
        '2026-03-05T12:14:59Z',
        '2026-03-05T12:15:00Z',
        '2026-03-09T23:30:00Z',
        '2026-03-10T00:00:00Z',
        '2026-03-10T18:29:59Z',
        '2026-03-10T18:30:00Z',
        '2026-03-10T18:15:00Z',
        '2026-02-10T10:00:00Z',
      ],
    ],
    [
      // Clocks go forward on Sunday the 8th at 02:00 EST (07:00 UTC): a 23-hour day.
      'America/New_York',
      { from: '2026-03-07', to: '2026-03-09' },
      [
        '2026-03-07T04:59:59Z',
        '2026-03-07T05:00:00Z',
        '2026-03-07T23:59:59Z',
        '2026-03-08T00:00:00Z',
        '2026-03-08T06:59:59Z',
        '2026-03-08T07:00:00Z',
        '2026-03-08T07:30:00Z',
        '2026-03-09T03:59:59Z',
        '2026-03-09T04:00:00Z',
        '2026-03-09T12:00:00Z',
        '2026-03-10T03:59:59Z',
        '2026-03-10T04:00:00Z',
        '2026-03-09T23:45:00Z',
        '2026-04-01T12:00:00Z',
      ],
    ],
  ];

  it.each(zones)(
    '%s: every grouping and the items report, then again after changes',
    async (zone, period, times) => {
      const catalog = await catalogIn(zone);
      const business = catalog.business.uuid;
      const orders = await history(catalog, (n) => times[n]);
      await expectSameAnswers(business, period);
      await expectSameAnswers(business, { from: '2026-01-01', to: '2026-12-31' });
      await expectRollupsMatchRebuild(business);

      // Later: a sale cancelled, one moved across the period's first midnight, a line renamed,
      // a Delivery line and an extra line added to sales, a line and an order deleted.
      expectOk(await updateOrderRequest(t, owner.headers, orders[1], { status: 'cancelled' }));
      await t.dataSource.query(`UPDATE orders SET created_at = $2 WHERE uuid = $1`, [
        orders[0],
        times[2],
      ]);
      await t.dataSource.query(
        `UPDATE order_lines SET title_name = 'Jollof rice' WHERE order_uuid = ANY($1) AND title_name = 'Jollof'`,
        [[orders[6], orders[7]]],
      );
      await t.dataSource.query(
        `INSERT INTO order_lines (order_uuid, position, item_uuid, title_name, category,
                                unit_price_amount, quantity, line_total, options)
       SELECT uuid, 90, $2::uuid, 'Delivery', 'Delivery', 2.00, 1, 2.00, '[]'::jsonb FROM orders WHERE uuid = $1
       UNION ALL
       SELECT uuid, 91, $3::uuid, 'Suya', NULL, 4.10, 2, 8.20, '[]'::jsonb FROM orders WHERE uuid = $1`,
        [orders[13], catalog.items[2].uuid, catalog.items[1].uuid],
      );
      await t.dataSource.query(`DELETE FROM order_lines WHERE order_uuid = $1 AND item_uuid = $2`, [
        orders[8],
        catalog.items[1].uuid,
      ]);
      await t.dataSource.query(`DELETE FROM orders WHERE uuid = $1`, [orders[3]]);
      await expectSameAnswers(business, period);
      await expectSameAnswers(business, { from: '2026-01-01', to: '2026-12-31' });
      await expectRollupsMatchRebuild(business);
    },
  );

  it('twenty orders placed at once for one business, then accepted at once, are all counted', async () => {
    const catalog = await catalogIn('Europe/London');
    const [jollof] = catalog.items;
    const cart = [{ uuid: jollof.uuid, quantity: 2 }];
    const body = orderBody(catalog, { cart_items: cart });
    body.amount = await computedTotal(body);
    const placed = await Promise.all(Array.from({ length: 20 }, () => placeOrder(t, { ...body })));
    await Promise.all(
      placed.map(async (o) =>
        expectOk(await updateOrderRequest(t, owner.headers, o.uuid, { status: 'accepted' })),
      ),
    );
    // Yesterday to tomorrow in UTC: today's local day, wherever the clock is.
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const period = { from: day(-1), to: day(1) };
    const base = `${t.core}/businesses/${catalog.business.uuid}/reports`;
    // Two reports folding at once: each delta is folded once.
    const [sales, items] = await Promise.all([
      t.http.get(`${base}/sales`).query(period).set(owner.headers),
      t.http.get(`${base}/items`).query(period).set(owner.headers),
    ]);
    expect(expectOk(sales).totals).toMatchObject({
      orders: 20,
      open_orders: 0,
      lost_orders: 0,
      total: (Number(body.amount) * 20).toFixed(2),
    });
    expect(expectOk(items).rows).toEqual([
      expect.objectContaining({ item_uuid: jollof.uuid, quantity: 40, orders: 20 }),
    ]);
    await expectSameAnswers(catalog.business.uuid, period);
    await expectRollupsMatchRebuild(catalog.business.uuid);
  });
});
