import { Clock } from '../src/common/clock';
import { Catalog, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  cartLine,
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/** Lagos is UTC+01:00 all year; open around the clock. */
const ALL_DAY = [['00:00', '24:00']];
const LAGOS = {
  timezone: 'Africa/Lagos',
  weekly: {
    mon: ALL_DAY,
    tue: ALL_DAY,
    wed: ALL_DAY,
    thu: ALL_DAY,
    fri: ALL_DAY,
    sat: ALL_DAY,
    sun: ALL_DAY,
  },
};

// R95: the stock setting.
// R96: portions taken by one conditional decrement; a line asking more than remain is refused.
// R97: daily stock per local day of the business.
// R98: ended orders give their portions back, once.
describe('stock: placement takes portions exactly, refuses the rest, and ended orders give them back', () => {
  let t: TestApp;
  let owner: TestUser;
  let clock: Clock;

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    owner = await createUser(t);
  });
  afterEach(() => clock.reset());
  afterAll(() => t?.close());

  const stocked = (stock: Record<string, unknown>, business: Record<string, unknown> = {}) =>
    newCatalog(t, owner, {
      business: { extra_data: { opening_hours: LAGOS, ...business } },
      items: [{ extra_data: { stock } }],
    });

  async function stockList(catalog: Catalog, date?: string): Promise<any[]> {
    const res = await t.http
      .get(`${t.core}/businesses/${catalog.business.uuid}/stock`)
      .query(date ? { date } : {})
      .set(owner.headers);
    return expectOk(res);
  }

  const counts = async (catalog: Catalog, date?: string) => {
    const [entry] = await stockList(catalog, date);
    return { taken: entry.taken, remaining: entry.remaining, quantity: entry.quantity };
  };

  async function stockRows() {
    return t.dataSource.query(
      'SELECT item_uuid, period, taken, adjusted FROM stock_counts ORDER BY 1, 2',
    );
  }

  async function ledgerRows() {
    const [{ count }] = await t.dataSource.query('SELECT count(*)::int AS count FROM stock_ledger');
    return count as number;
  }

  const ordered = (catalog: Catalog, quantity: number, extra: Record<string, unknown> = {}) =>
    orderBody(catalog, {
      amount: 10 * quantity,
      cart_items: [cartLine(catalog.items[0], quantity)],
      ...extra,
    });

  it('refuses stock settings outside the rules with 400 naming the path, storing nothing', async () => {
    const menu = (await stocked({ mode: 'count', quantity: 1 })).menu;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mode: 'weekly', quantity: 5 }, 'extra_data.stock.mode'],
      [{ mode: 'daily', quantity: -1 }, 'extra_data.stock.quantity'],
      [{ mode: 'daily', quantity: 100001 }, 'extra_data.stock.quantity'],
      [{ mode: 'daily', quantity: 2.5 }, 'extra_data.stock.quantity'],
      [{ mode: 'daily', quantity: 5, low_at: 6 }, 'extra_data.stock.low_at'],
      [{ mode: 'daily', quantity: 5, low_at: -1 }, 'extra_data.stock.low_at'],
      [{ mode: 'daily', quantity: 5, extra: 1 }, 'extra_data.stock.extra'],
    ];
    const [{ count: before }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM entities',
    );
    for (const [stock, field] of cases) {
      const res = await t.http
        .post(`${t.core}/smart-meta-manager/entity/${t.config.namespace}_business_menu_item`)
        .set(owner.headers)
        .send({
          meta_key: '',
          title_name: 'Rice',
          status: 'enabled',
          parent_entity_type: `${t.config.namespace}_business_menu`,
          parent_entity_uuid: menu.uuid,
          extra_data: {
            unit_price_amount: '10.00',
            minimum_quantity_per_order: 1,
            maximum_quantity_per_order: 10,
            stock,
          },
        });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
    }
    const [{ count: after }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM entities',
    );
    expect(after).toBe(before);
    // Form strings are read as whole numbers; low_at defaults to 0.
    const item = await newItem(t, owner, menu, {
      extra_data: { stock: { mode: 'daily', quantity: '40' } },
    });
    expect(item.extra_data.stock).toEqual({ mode: 'daily', quantity: 40, low_at: 0 });
  });

  it('takes portions at placement and refuses a line asking more than remain: 422 naming the line, nothing stored', async () => {
    const catalog = await stocked({ mode: 'count', quantity: 3 });
    const plain = await newItem(t, owner, catalog.menu);
    await placeOrder(t, ordered(catalog, 2));
    expect(await counts(catalog)).toEqual({ taken: 2, remaining: 1, quantity: 3 });

    const before = await rowCounts(t);
    const stockBefore = await stockRows();
    const ledgerBefore = await ledgerRows();
    // The stocked item is the second line: the detail names it.
    const res = await placeOrderRequest(
      t,
      orderBody(catalog, {
        amount: 30,
        cart_items: [cartLine(plain, 1), cartLine(catalog.items[0], 2)],
      }),
    );
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0]).toMatchObject({
      field: 'cart_items.1.quantity',
      remaining: 1,
    });
    expect(await rowCounts(t)).toEqual(before);
    expect(await stockRows()).toEqual(stockBefore);
    expect(await ledgerRows()).toBe(ledgerBefore);

    // Two lines of the same item count together.
    const split = await placeOrderRequest(
      t,
      orderBody(catalog, {
        amount: 20,
        cart_items: [cartLine(catalog.items[0], 1), cartLine(catalog.items[0], 1)],
      }),
    );
    expectError(split, 422, 'UNPROCESSABLE');
    expect(split.body.error.details[0]).toMatchObject({
      field: 'cart_items.0.quantity',
      remaining: 1,
    });

    await placeOrder(t, ordered(catalog, 1));
    expect(await counts(catalog)).toEqual({ taken: 3, remaining: 0, quantity: 3 });
    const sold = await placeOrderRequest(t, ordered(catalog, 1));
    expectError(sold, 422, 'UNPROCESSABLE');
    expect(sold.body.error.details[0]).toMatchObject({ remaining: 0 });
  });

  it('leaves items without stock as they were: no stock rows, no ledger, no extra statements', async () => {
    const catalog = await newCatalog(t, owner);
    const spy = jest.spyOn(t.dataSource, 'query');
    try {
      for (let i = 0; i < 3; i++) await placeOrder(t, orderBody(catalog));
      const sent = spy.mock.calls.map(([sql]) => String(sql));
      expect(sent.filter((sql) => /stock_/.test(sql))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    const [{ count }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM stock_counts WHERE item_uuid = $1',
      [catalog.items[0].uuid],
    );
    expect(count).toBe(0);
  });

  it('lets exactly the portions left win among 30 simultaneous placements, never below 0', async () => {
    const catalog = await stocked({ mode: 'daily', quantity: 5 });
    const results = await Promise.all(
      Array.from({ length: 30 }, () => placeOrderRequest(t, ordered(catalog, 1))),
    );
    const won = results.filter((res) => res.status === 201);
    expect(won).toHaveLength(5);
    for (const res of results.filter((r) => r.status !== 201)) {
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0]).toMatchObject({
        field: 'cart_items.0.quantity',
        remaining: 0,
      });
    }
    const [{ orders }] = await t.dataSource.query(
      'SELECT count(*)::int AS orders FROM orders WHERE menu_uuid = $1',
      [catalog.menu.uuid],
    );
    expect(orders).toBe(5);
    expect(await counts(catalog)).toEqual({ taken: 5, remaining: 0, quantity: 5 });
    const [{ takes }] = await t.dataSource.query(
      `SELECT -sum(delta)::int AS takes FROM stock_ledger WHERE item_uuid = $1 AND reason = 'order'`,
      [catalog.items[0].uuid],
    );
    expect(takes).toBe(5);
  });

  it('gives the portions back when an order is rejected or cancelled, once, with the ledger saying who', async () => {
    const catalog = await stocked({ mode: 'count', quantity: 4 });
    const first = await placeOrder(t, ordered(catalog, 2));
    const second = await placeOrder(t, ordered(catalog, 2));
    expect(await counts(catalog)).toMatchObject({ taken: 4, remaining: 0 });

    expectOk(await updateOrderRequest(t, owner.headers, first.uuid, { status: 'rejected' }));
    expect(await counts(catalog)).toMatchObject({ taken: 2, remaining: 2 });
    // A second move of an ended order is refused and gives nothing more.
    expectError(
      await updateOrderRequest(t, owner.headers, first.uuid, { status: 'cancelled' }),
      422,
      'UNPROCESSABLE',
    );
    expect(await counts(catalog)).toMatchObject({ taken: 2, remaining: 2 });

    expectOk(
      await t.http
        .post(`${t.orders}/order/${second.uuid}/cancel`)
        .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': second.order_token })
        .send({}),
    );
    expect(await counts(catalog)).toMatchObject({ taken: 0, remaining: 4 });

    const ledger = expectOk(
      await t.http
        .get(`${t.core}/businesses/${catalog.business.uuid}/stock/${catalog.items[0].uuid}/ledger`)
        .set(owner.headers),
    );
    expect(ledger.map((e: any) => [e.reason, e.delta, e.order_uuid, e.actor, e.by])).toEqual(
      expect.arrayContaining([
        ['order', -2, first.uuid, 'guest', null],
        ['order', -2, second.uuid, 'guest', null],
        ['order_returned', 2, first.uuid, 'owner', owner.uuid],
        ['order_returned', 2, second.uuid, 'guest', null],
      ]),
    );
    expect(ledger).toHaveLength(4);
  });

  it('returns the portions once when a reject races a cancel', async () => {
    const catalog = await stocked({ mode: 'count', quantity: 3 });
    for (let round = 0; round < 3; round++) {
      const order = await placeOrder(t, ordered(catalog, 3));
      const [reject, cancel] = await Promise.all([
        updateOrderRequest(t, owner.headers, order.uuid, { status: 'rejected' }),
        t.http
          .post(`${t.orders}/order/${order.uuid}/cancel`)
          .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': order.order_token })
          .send({}),
      ]);
      expect([reject.status, cancel.status].filter((s) => s === 200)).toHaveLength(1);
      expect(await counts(catalog)).toMatchObject({ taken: 0, remaining: 3 });
      const [{ returns }] = await t.dataSource.query(
        `SELECT count(*)::int AS returns FROM stock_ledger
          WHERE order_uuid = $1 AND reason = 'order_returned'`,
        [order.uuid],
      );
      expect(returns).toBe(1);
    }
  });

  it('counts daily stock per local day: sold out at 23:59 in Lagos, whole again after midnight there', async () => {
    const catalog = await stocked({ mode: 'daily', quantity: 2 });
    // 23:30 in Lagos on 1 June is 22:30 UTC.
    clock.set(new Date('2026-06-01T22:30:00Z'));
    await placeOrder(t, ordered(catalog, 2));
    expect(await counts(catalog)).toEqual({ taken: 2, remaining: 0, quantity: 2 });
    clock.set(new Date('2026-06-01T22:59:00Z'));
    expectError(await placeOrderRequest(t, ordered(catalog, 1)), 422, 'UNPROCESSABLE');
    // 00:01 in Lagos on 2 June, still 1 June in UTC: a new day for the business.
    clock.set(new Date('2026-06-01T23:01:00Z'));
    expect(await counts(catalog)).toEqual({ taken: 0, remaining: 2, quantity: 2 });
    await placeOrder(t, ordered(catalog, 1));
    expect(await counts(catalog)).toEqual({ taken: 1, remaining: 1, quantity: 2 });
    // The day before keeps its own count.
    expect(await counts(catalog, '2026-06-01')).toEqual({ taken: 2, remaining: 0, quantity: 2 });
  });

  /** A menu taking orders for later (`slot` caps each slot), its one item 3 portions a day. */
  const scheduledStock = (slot: Record<string, number> = {}) =>
    newCatalog(t, owner, {
      business: { extra_data: { opening_hours: LAGOS } },
      menu: {
        extra_data: {
          fulfilment: {
            modes: ['pickup'],
            scheduling: { enabled: true, slot_minutes: 15, max_days_ahead: 7, ...slot },
          },
        },
      },
      items: [{ extra_data: { stock: { mode: 'daily', quantity: 3 } } }],
    });

  it('takes an order for later from the day of its requested time', async () => {
    const catalog = await scheduledStock();
    clock.set(new Date('2026-06-01T10:00:00Z'));
    await placeOrder(t, ordered(catalog, 3, { requested_time: '2026-06-03T12:00:00+01:00' }));
    expect(await counts(catalog)).toMatchObject({ taken: 0, remaining: 3 });
    expect(await counts(catalog, '2026-06-03')).toMatchObject({ taken: 3, remaining: 0 });
    await placeOrder(t, ordered(catalog, 3));
    const res = await placeOrderRequest(
      t,
      ordered(catalog, 1, { requested_time: '2026-06-03T13:00:00+01:00' }),
    );
    expectError(res, 422, 'UNPROCESSABLE');
  });

  it('takes a stocked order for later’s place and portions together; a full slot refuses it first, taking nothing', async () => {
    const catalog = await scheduledStock({ max_orders_per_slot: 1 });
    clock.set(new Date('2026-06-01T10:00:00Z'));
    const full = '2026-06-03T12:00:00+01:00';
    await placeOrder(t, ordered(catalog, 1, { requested_time: full }));
    expect(await counts(catalog, '2026-06-03')).toMatchObject({ taken: 1, remaining: 2 });
    const slotRows = () =>
      t.dataSource.query('SELECT slot_start, taken FROM order_slots WHERE menu_uuid = $1', [
        catalog.menu.uuid,
      ]);
    const refused = async (quantity: number, requested_time: string) => {
      const before = [await rowCounts(t), await stockRows(), await ledgerRows(), await slotRows()];
      const res = await placeOrderRequest(t, ordered(catalog, quantity, { requested_time }));
      expectError(res, 422, 'UNPROCESSABLE');
      expect([await rowCounts(t), await stockRows(), await ledgerRows(), await slotRows()]).toEqual(
        before,
      );
      return res.body.error.details[0];
    };
    // The slot is full: refused naming the time, whether or not the portions remain.
    expect(await refused(1, full)).toMatchObject({ field: 'requested_time', slot_full: true });
    expect(await refused(5, full)).toMatchObject({ field: 'requested_time', slot_full: true });
    // A free slot, too few portions: refused naming the line, the slot's place not taken.
    expect(await refused(5, '2026-06-03T13:00:00+01:00')).toMatchObject({
      field: 'cart_items.0.quantity',
      remaining: 2,
    });
  });

  it('keeps what orders hold when the quantity changes: remaining never below 0', async () => {
    const catalog = await stocked({ mode: 'count', quantity: 5 });
    await placeOrder(t, ordered(catalog, 4));
    const item = catalog.items[0];
    expectOk(
      await t.http
        .put(
          `${t.core}/smart-meta-manager/entity/${t.config.namespace}_business_menu_item/${item.uuid}`,
        )
        .set(owner.headers)
        .send({ extra_data: { ...item.extra_data, stock: { mode: 'count', quantity: 2 } } }),
    );
    expect(await counts(catalog)).toEqual({ taken: 4, remaining: 0, quantity: 2 });
    expectError(await placeOrderRequest(t, ordered(catalog, 1)), 422, 'UNPROCESSABLE');
  });
});
