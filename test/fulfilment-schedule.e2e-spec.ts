import { Clock } from '../src/common/clock';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import {
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { serverOnly } from './support/server-only';
import { startTestApp, TestApp } from './support/test-app';

/** Europe/London, on BST (+01:00) in June; 2026-06-01 is a Monday. */
const DAILY = [['08:00', '22:00']];
const HOURS = {
  timezone: 'Europe/London',
  weekly: { mon: DAILY, tue: DAILY, wed: DAILY, thu: DAILY, fri: DAILY, sat: DAILY, sun: DAILY },
  closures: [{ from: '2026-06-03', to: '2026-06-03', note: 'Staff day' }],
};
const SCHEDULING = { enabled: true, slot_minutes: 15, max_days_ahead: 7, max_orders_per_slot: 5 };
const NOW = '2026-06-01T06:00:00Z'; // 07:00 in London: closed until 08:00.

// R53: orders for later.
// R54: slot cap.
describe('orders for later: requested times, pre-orders, slot caps and the slots endpoint', () => {
  let t: TestApp;
  let owner: TestUser;
  let clock: Clock;
  /** Switched off for orders now, taking orders for later with 5 places per slot. */
  let shop: Catalog;
  /** Open, no scheduling. */
  let now: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    owner = await createUser(t);
    shop = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: HOURS, accepting_orders: false } },
      menu: {
        extra_data: {
          fulfilment: { modes: ['pickup'], prep_time_minutes: 30, scheduling: SCHEDULING },
        },
      },
    });
    now = await newCatalog(t, owner, {
      menu: { extra_data: { fulfilment: { modes: ['pickup'] } } },
    });
  });
  beforeEach(() => clock.set(new Date(NOW)));
  afterAll(() => {
    clock?.reset();
    return t?.close();
  });

  const forLater = (catalog: Catalog, requested_time: string) =>
    orderBody(catalog, { requested_time });

  async function expectRefused(body: Record<string, unknown>, field = 'requested_time') {
    const before = await rowCounts(t);
    const slotsBefore = await slotRows();
    const res = await placeOrderRequest(t, body);
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0].field).toBe(field);
    expect(await rowCounts(t)).toEqual(before);
    expect(await slotRows()).toEqual(slotsBefore);
    return res.body.error.details[0];
  }

  async function slotRows() {
    return t.dataSource.query('SELECT menu_uuid, slot_start, taken FROM order_slots ORDER BY 1, 2');
  }

  function slots(catalog: Catalog, date: string) {
    return t.http
      .get(`${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}/slots`)
      .query({ date })
      .set(apiHeaders(t));
  }

  it('takes a pre-order while closed and switched off, and stores its slot', async () => {
    const order = await placeOrder(t, forLater(shop, '2026-06-01T12:15:00+01:00'));
    expect(order).toMatchObject({
      fulfilment_type: 'pickup',
      requested_time: '2026-06-01T11:15:00.000Z',
      estimated_ready_at: null,
    });
  });

  it('still refuses an order for now while closed', async () => {
    await expectRefused(orderBody(shop), 'menu_uuid');
  });

  it.each([
    ['off the slot grid', '2026-06-01T12:10:00+01:00', /multiple of 15/],
    ['sooner than the prep time', '2026-06-01T06:15:00Z', /at least 30 minutes/],
    ['beyond the window', '2026-06-09T12:00:00+01:00', /7 days/],
    ['outside the hours', '2026-06-01T22:00:00+01:00', /opening hours/],
    ['on a closure', '2026-06-03T12:00:00+01:00', /opening hours/],
  ])('refuses a requested time %s with 422, storing nothing', async (_, requested, message) => {
    const detail = await expectRefused(forLater(shop, requested));
    expect(detail.message).toMatch(message);
  });

  it('refuses a requested time on a menu without scheduling', async () => {
    await expectRefused(forLater(now, '2026-06-01T12:00:00+01:00'));
  });

  it('refuses a requested time without an offset with 400', async () => {
    const res = await placeOrderRequest(t, forLater(shop, '2026-06-01T12:00:00'));
    expectError(res, 400, 'VALIDATION_FAILED');
  });

  it('lists the slots of a day in the business zone, with the places left', async () => {
    const listed = expectOk(await slots(shop, '2026-06-01'));
    // From 07:30 (now + 30 minutes, but the hours open at 08:00) to 21:45.
    expect(listed[0]).toEqual({
      start: '2026-06-01T08:00:00+01:00',
      end: '2026-06-01T08:15:00+01:00',
      remaining: 5,
    });
    expect(listed[listed.length - 1].start).toBe('2026-06-01T21:45:00+01:00');
    expect(listed).toHaveLength(14 * 4); // 12:15 holds one order: 4 left, still listed
    expect(listed.find((slot: any) => slot.start === '2026-06-01T12:15:00+01:00').remaining).toBe(
      4,
    );
    expect(expectOk(await slots(shop, '2026-06-03'))).toEqual([]);
    expect(expectOk(await slots(shop, '2026-06-09'))).toEqual([]);
    expect(expectOk(await slots(now, '2026-06-01'))).toEqual([]);
    expectError(await slots(shop, '2026-02-30'), 400, 'VALIDATION_FAILED');
    expectError(await slots(shop, 'tomorrow'), 400, 'VALIDATION_FAILED');
  });

  it('lets exactly the places left win among 30 simultaneous placements; a cancel or reject frees one', async () => {
    const slot = '2026-06-02T19:00:00+01:00';
    const results = await Promise.all(
      Array.from({ length: 30 }, () => placeOrderRequest(t, forLater(shop, slot))),
    );
    const won = results.filter((res) => res.status === 201);
    const lost = results.filter((res) => res.status !== 201);
    expect(won).toHaveLength(5);
    expect(lost).toHaveLength(25);
    for (const res of lost) {
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0]).toMatchObject({ field: 'requested_time', slot_full: true });
      expect(res.body.error.details[0].message).toMatch(/slot full/);
    }
    const [{ count }] = await t.dataSource.query(
      'SELECT count(*)::int AS count FROM orders WHERE menu_uuid = $1 AND requested_time = $2',
      [shop.menu.uuid, new Date(slot)],
    );
    expect(count).toBe(5);
    const listed = () =>
      slots(shop, '2026-06-02').then((res) =>
        expectOk(res).find((entry: any) => entry.start === slot),
      );
    expect(await listed()).toBeUndefined();
    await expectRefused(forLater(shop, slot));

    // The owner rejects one: its place is free again, once.
    const [first, second] = won.map((res) => res.body.data);
    expectOk(await updateOrderRequest(t, owner.headers, first.uuid, { status: 'rejected' }));
    expect(await listed()).toMatchObject({ remaining: 1 });
    await placeOrder(t, forLater(shop, slot));
    await expectRefused(forLater(shop, slot));

    // The guest cancels one.
    expectOk(
      await t.http
        .post(`${t.orders}/order/${second.uuid}/cancel`)
        .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': second.order_token })
        .send({}),
    );
    expect(await listed()).toMatchObject({ remaining: 1 });
    // A second status change of a cancelled order frees nothing more.
    expectError(
      await updateOrderRequest(t, owner.headers, second.uuid, { status: 'rejected' }),
      422,
      'UNPROCESSABLE',
    );
    expect(await listed()).toMatchObject({ remaining: 1 });
  });

  // Two transactions at once: the embedded database serves one connection.
  serverOnly(
    'takes the slot in the statement that commits the placement, so its lock lasts that statement only',
    async () => {
      const slot = '2026-06-04T12:00:00+01:00';
      await placeOrder(t, forLater(shop, slot));
      const blocker = t.dataSource.createQueryRunner();
      await blocker.connect();
      await blocker.startTransaction();
      try {
        // Another transaction holds the slot's row.
        await blocker.query(
          'SELECT taken FROM order_slots WHERE menu_uuid = $1 AND slot_start = $2 FOR UPDATE',
          [shop.menu.uuid, new Date(slot)],
        );
        // Sent now (a request is sent once something waits for it).
        const placing = placeOrderRequest(t, forLater(shop, slot)).then((res) => res);
        let waiting: string | undefined;
        for (let attempt = 0; attempt < 200 && !waiting; attempt++) {
          const [row] = await t.dataSource.query(
            `SELECT query FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
          );
          waiting = row?.query;
          if (!waiting) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // What waits for the slot's row is the placement's last statement: the
        // place taken first in it, the writes held for the commit with it. The
        // order was written before, and nothing of the placement is left after it.
        expect(waiting).toMatch(/^WITH lead AS \(insert into "order_slots"[\s\S]*, w0 AS \(/);
        await blocker.commitTransaction();
        expect((await placing).status).toBe(201);
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }
      const [{ count }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM orders WHERE menu_uuid = $1 AND requested_time = $2',
        [shop.menu.uuid, new Date(slot)],
      );
      expect(count).toBe(2);
    },
  );
});
