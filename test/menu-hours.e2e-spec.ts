import { Clock } from '../src/common/clock';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/** Europe/London: GMT in winter, BST (+01:00) from the last Sunday of March. 2026-06-01 is a Monday. */
const HOURS = {
  timezone: 'Europe/London',
  weekly: {
    mon: [['08:00', '22:00']],
    fri: [['18:00', '02:00']],
    sun: [],
  },
  closures: [{ from: '2026-06-08', to: '2026-06-08', note: 'Staff day' }],
};

// R36: opening hours.
describe('opening hours and the accepting_orders switch', () => {
  let t: TestApp;
  let owner: TestUser;
  let clock: Clock;
  let shop: Catalog;
  let paused: Catalog;

  beforeAll(async () => {
    // A long cache, so a cached storefront answer outlives the moments these tests step over.
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '60000' });
    clock = t.app.get(Clock);
    owner = await createUser(t);
    shop = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: HOURS, accepting_orders: 'true' } },
    });
    paused = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: HOURS, accepting_orders: false } },
    });
  });
  afterEach(() => clock.reset());
  afterAll(() => t?.close());

  const at = (iso: string) => clock.set(new Date(iso));

  async function storefront(catalog: Catalog) {
    const res = await t.http
      .get(`${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`)
      .set(apiHeaders(t));
    return expectOk(res);
  }

  async function expectClosed(catalog: Catalog, opensAt: string | null) {
    const before = await rowCounts(t);
    const res = await placeOrderRequest(t, orderBody(catalog));
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ field: 'menu_uuid', closed: true, opens_at: opensAt }),
    ]);
    expect(await rowCounts(t)).toEqual(before);
    const answer = await storefront(catalog);
    expect(answer.open_now).toBe(false);
    expect(answer.next_change_at).toBe(opensAt);
  }

  async function expectOpen(catalog: Catalog, closesAt: string | null) {
    const answer = await storefront(catalog);
    expect(answer.open_now).toBe(true);
    expect(answer.next_change_at).toBe(closesAt);
    await placeOrder(t, orderBody(catalog));
  }

  it('stores the hours as written, and "true" as a boolean', () => {
    expect(shop.business.extra_data.accepting_orders).toBe(true);
    expect(shop.business.extra_data.opening_hours.weekly.fri).toEqual([['18:00', '02:00']]);
  });

  it('is closed a second before an interval starts and open from its first second', async () => {
    at('2026-06-01T06:59:59Z');
    await expectClosed(shop, '2026-06-01T08:00:00+01:00');
    at('2026-06-01T07:00:00Z');
    await expectOpen(shop, '2026-06-01T22:00:00+01:00');
  });

  it('closes at the end of an interval, even when the storefront answer is cached', async () => {
    at('2026-06-01T20:59:58Z');
    await expectOpen(shop, '2026-06-01T22:00:00+01:00');
    // Two seconds later, well inside the cache's lifetime.
    clock.advance(2000);
    await expectClosed(shop, '2026-06-05T18:00:00+01:00');
  });

  it('stays open past midnight on an interval that runs into the next day', async () => {
    // Saturday 00:30 BST.
    at('2026-06-05T23:30:00Z');
    await expectOpen(shop, '2026-06-06T02:00:00+01:00');
    // Monday 8 June is a closure day: the next opening is Friday evening.
    at('2026-06-06T01:00:00Z');
    await expectClosed(shop, '2026-06-12T18:00:00+01:00');
  });

  it('is closed on a closure day and names the next opening after it', async () => {
    at('2026-06-08T11:00:00Z');
    await expectClosed(shop, '2026-06-12T18:00:00+01:00');
    // The Monday after opens as usual.
    at('2026-06-15T06:59:00Z');
    await expectClosed(shop, '2026-06-15T08:00:00+01:00');
  });

  it('is closed whatever the hours say when the owner is not accepting orders', async () => {
    at('2026-06-01T11:00:00Z');
    await expectClosed(paused, null);
  });

  it('refuses malformed hours with 400 naming the path, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...HOURS, timezone: 'Europe/Nowhere' }, 'extra_data.opening_hours.timezone'],
      [
        { ...HOURS, weekly: { mon: [['8am', '22:00']] } },
        'extra_data.opening_hours.weekly.mon[0][0]',
      ],
      [
        { ...HOURS, weekly: { tue: [['08:00', '25:00']] } },
        'extra_data.opening_hours.weekly.tue[0][1]',
      ],
      [{ ...HOURS, weekly: { someday: [] } }, 'extra_data.opening_hours.weekly.someday'],
      [
        { ...HOURS, closures: [{ from: '2026-06-09', to: '2026-06-08' }] },
        'extra_data.opening_hours.closures[0].to',
      ],
      ['9 to 5', 'extra_data.opening_hours'],
    ];
    for (const [hours, field] of cases) {
      const [{ count: before }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM entities',
      );
      const res = await t.http
        .post(entityPath(t, 'business'))
        .set(owner.headers)
        .send({ meta_key: `bad-hours-${before}`, extra_data: { opening_hours: hours } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      const [{ count: after }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM entities',
      );
      expect(after).toBe(before);
    }
    const res = await t.http
      .post(entityPath(t, 'business'))
      .set(owner.headers)
      .send({ meta_key: 'bad-switch', extra_data: { accepting_orders: 'sometimes' } });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('extra_data.accepting_orders');
  });

  it('is always open without hours', async () => {
    clock.reset();
    const plain = await newCatalog(t, owner);
    const answer = await storefront(plain);
    expect(answer.open_now).toBe(true);
    expect(answer.next_change_at).toBeNull();
  });
});
