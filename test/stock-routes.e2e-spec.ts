import { Clock } from '../src/common/clock';
import { EntityResponse, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, TestUser } from './support/factory';
import { cartLine, orderBody, placeOrder } from './support/order';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R99: stock is read, adjusted and its ledger read by the owner, managers and staff of the business.
describe('stock routes: the day’s counts, adjustments with a reason, and the ledger', () => {
  let t: TestApp;
  let clock: Clock;
  let team: Team;
  /** Daily, 10 a day, low at 3, in the team's business. */
  let rice: EntityResponse;
  /** Count stock of the outsider's business. */
  let theirs: EntityResponse;
  /** An item of the team's business without stock. */
  let plain: EntityResponse;

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    team = await newTeam(t);
    rice = await newItem(t, team.owner, team.catalog.menu, {
      title_name: 'Jollof rice',
      extra_data: { stock: { mode: 'daily', quantity: 10, low_at: 3 } },
    });
    theirs = await newItem(t, team.outsider, team.other.menu, {
      extra_data: { stock: { mode: 'count', quantity: 7 } },
    });
    plain = team.catalog.items[0];
  });
  afterEach(() => clock.reset());
  afterAll(() => t?.close());

  const base = (business: string) => `${t.core}/businesses/${business}/stock`;
  const list = (user: TestUser, business = team.catalog.business.uuid, date?: string) =>
    t.http
      .get(base(business))
      .query(date ? { date } : {})
      .set(user.headers);
  const adjust = (
    user: TestUser,
    body: Record<string, unknown>,
    item = rice.uuid,
    business = team.catalog.business.uuid,
  ) =>
    t.http
      .post(`${base(business)}/${item}/adjust`)
      .set(user.headers)
      .send(body);
  const ledger = (user: TestUser, item = rice.uuid, business = team.catalog.business.uuid) =>
    t.http.get(`${base(business)}/${item}/ledger`).set(user.headers);
  const riceNow = async () =>
    (expectOk(await list(team.owner)) as any[]).find((entry) => entry.item_uuid === rice.uuid);
  const stored = () =>
    t.dataSource.query(
      `SELECT (SELECT coalesce(json_agg(c ORDER BY c.item_uuid, c.period), '[]') FROM stock_counts c) AS counts,
              (SELECT count(*)::int FROM stock_ledger) AS ledger`,
    );

  it('lists every stocked item of the business for today, to the owner, managers and staff alike', async () => {
    for (const user of [team.owner, team.manager, team.staff]) {
      const listed = expectOk(await list(user));
      expect(listed).toEqual([
        {
          item_uuid: rice.uuid,
          title_name: 'Jollof rice',
          mode: 'daily',
          date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          quantity: 10,
          taken: 0,
          remaining: 10,
          low: false,
        },
      ]);
    }
    expectError(
      await list(team.owner, team.catalog.business.uuid, '2026-02-30'),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await list(team.owner, team.catalog.business.uuid, 'today'),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('answers 404 to a caller with no part in the business, and 401 without a token', async () => {
    expectError(await list(team.outsider), 404, 'NOT_FOUND');
    expectError(await adjust(team.outsider, { delta: 5, reason: 'restock' }), 404, 'NOT_FOUND');
    expectError(await ledger(team.outsider), 404, 'NOT_FOUND');
    expectError(
      await t.http.get(base(team.catalog.business.uuid)).set(apiHeaders(t)),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('keeps each business’s stock to its own people: another business’s item is 404 by either path, and stays as it was', async () => {
    const before = await stored();
    // The owner through the outsider's business, and through their own with the outsider's item.
    expectError(
      await adjust(
        team.owner,
        { delta: -7, reason: 'waste' },
        theirs.uuid,
        team.other.business.uuid,
      ),
      404,
      'NOT_FOUND',
    );
    expectError(
      await adjust(team.staff, { delta: -7, reason: 'waste' }, theirs.uuid),
      404,
      'NOT_FOUND',
    );
    expectError(await ledger(team.manager, theirs.uuid), 404, 'NOT_FOUND');
    expectError(await ledger(team.owner, theirs.uuid, team.other.business.uuid), 404, 'NOT_FOUND');
    expectError(await list(team.staff, team.other.business.uuid), 404, 'NOT_FOUND');
    expect(await stored()).toEqual(before);
    // Their own owner sees theirs untouched.
    expect(expectOk(await list(team.outsider, team.other.business.uuid))).toEqual([
      expect.objectContaining({ item_uuid: theirs.uuid, quantity: 7, taken: 0, remaining: 7 }),
    ]);
  });

  it('refuses a bad adjustment with 400 or 422, storing nothing', async () => {
    const before = await stored();
    for (const body of [
      { reason: 'restock' },
      { delta: 2, set: 3, reason: 'restock' },
      { delta: 2 },
      { delta: 2, reason: 'stolen' },
      { delta: 2.5, reason: 'restock' },
      { set: -1, reason: 'recount' },
      { delta: 2, reason: 'restock', note: 'x'.repeat(501) },
    ]) {
      expectError(await adjust(team.owner, body), 400, 'VALIDATION_FAILED');
    }
    expectError(
      await adjust(team.owner, { delta: 1, reason: 'restock' }, plain.uuid),
      422,
      'UNPROCESSABLE',
    );
    const tooMuch = await adjust(team.owner, { delta: -11, reason: 'waste' });
    expectError(tooMuch, 422, 'UNPROCESSABLE');
    expect(tooMuch.body.error.details[0]).toMatchObject({
      field: 'delta',
      taken: 0,
      remaining: 10,
    });
    expect(await stored()).toEqual(before);
  });

  it('restocks, recounts and wastes with who and why in the ledger, never below what orders hold', async () => {
    await placeOrder(t, orderBody(team.catalog, { amount: 40, cart_items: [cartLine(rice, 4)] }));
    expect(await riceNow()).toMatchObject({ quantity: 10, taken: 4, remaining: 6, low: false });

    const restocked = expectOk(
      await adjust(team.staff, { delta: 5, reason: 'restock', note: 'Second pot' }),
    );
    expect(restocked).toMatchObject({ quantity: 15, taken: 4, remaining: 11 });

    // `set` sets what remains; what orders took stays taken.
    expect(expectOk(await adjust(team.manager, { set: 2, reason: 'recount' }))).toMatchObject({
      quantity: 6,
      taken: 4,
      remaining: 2,
      low: true,
    });
    // Taking away more than remains is refused; exactly what remains is allowed.
    const refused = await adjust(team.owner, { delta: -3, reason: 'waste' });
    expectError(refused, 422, 'UNPROCESSABLE');
    expect(refused.body.error.details[0]).toMatchObject({ taken: 4, remaining: 2 });
    expect(expectOk(await adjust(team.owner, { delta: -2, reason: 'waste' }))).toMatchObject({
      quantity: 4,
      remaining: 0,
    });

    const entries = expectOk(await ledger(team.staff));
    expect(entries.map((e: any) => [e.reason, e.delta, e.actor, e.by, e.note])).toEqual([
      ['waste', -2, 'owner', team.owner.uuid, null],
      ['recount', -9, 'manager', team.manager.uuid, null],
      ['restock', 5, 'staff', team.staff.uuid, 'Second pot'],
      ['order', -4, 'guest', null, null],
    ]);
    expect(entries[3].order_uuid).toEqual(expect.any(String));
    expect(entries.slice(0, 3).every((e: any) => e.order_uuid === null)).toBe(true);
    const times = entries.map((e: any) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('adjusts daily stock for today only: the next local day starts from the setting again', async () => {
    clock.set(new Date('2026-07-01T10:00:00Z'));
    expectOk(await adjust(team.owner, { delta: 20, reason: 'restock' }));
    expect(await riceNow()).toMatchObject({ date: '2026-07-01', quantity: 30, remaining: 30 });
    clock.set(new Date('2026-07-02T10:00:00Z'));
    expect(await riceNow()).toMatchObject({ date: '2026-07-02', quantity: 10, remaining: 10 });
    const yesterday = (
      expectOk(await list(team.owner, team.catalog.business.uuid, '2026-07-01')) as any[]
    )[0];
    expect(yesterday).toMatchObject({ date: '2026-07-01', quantity: 30 });
  });

  it('lets two simultaneous adjustments both count, and never below what orders hold', async () => {
    const item = await newItem(t, team.owner, team.catalog.menu, {
      extra_data: { stock: { mode: 'count', quantity: 10 } },
    });
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        adjust(team.owner, { delta: -3, reason: 'waste' }, item.uuid),
      ),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(3);
    for (const res of results.filter((r) => r.status !== 200)) {
      expectError(res, 422, 'UNPROCESSABLE');
    }
    const entry = (expectOk(await list(team.owner)) as any[]).find(
      (e) => e.item_uuid === item.uuid,
    );
    expect(entry).toMatchObject({ quantity: 1, remaining: 1 });
  });
});
