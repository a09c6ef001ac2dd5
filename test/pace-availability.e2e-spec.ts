import { Clock } from '../src/common/clock';
import { OutboxWorker } from '../src/outbox/outbox.worker';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser } from './support/factory';
import { createTestDatabase } from './support/database';
import { serverOnly } from './support/server-only';
import {
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { addMember, newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const MINUTE = 60_000;
const SCHEDULING = { enabled: true, slot_minutes: 15, max_days_ahead: 7 };

// R93: the kitchen's switch.
// R94: busy and paused at placement and acceptance.
describe('the kitchen’s switch: open, busy and paused', () => {
  let t: TestApp;
  let clock: Clock;
  let team: Team;
  let shop: Catalog;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      STOREFRONT_CACHE_TTL_MS: '60000',
    });
    clock = t.app.get(Clock);
    team = await newTeam(t);
    await receiver.start();
  });
  beforeEach(async () => {
    clock.reset();
    shop = await newCatalog(t, team.owner, {
      menu: {
        extra_data: {
          fulfilment: { modes: ['pickup'], prep_time_minutes: 15, scheduling: SCHEDULING },
        },
      },
    });
    await addMember(t, team.owner, shop.business.uuid, team.manager, 'manager');
    await addMember(t, team.owner, shop.business.uuid, team.staff, 'staff');
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });

  const path = (catalog: Catalog = shop) =>
    `${t.core}/businesses/${catalog.business.uuid}/availability`;
  const put = (headers: Record<string, string>, body: Record<string, unknown>, catalog = shop) =>
    t.http.put(path(catalog)).set(headers).send(body);
  const get = async (catalog = shop, headers = team.owner.headers) =>
    expectOk(await t.http.get(path(catalog)).set(headers));
  const storefront = (catalog = shop) =>
    t.http
      .get(`${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`)
      .set(apiHeaders(t));
  const changes = async (): Promise<number> =>
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM business_availability_changes`))[0].n;
  const later = (minutes: number) =>
    new Date(Math.ceil((clock.nowMs() + minutes * MINUTE) / (15 * MINUTE)) * 15 * MINUTE);

  it('reads open by default; owner, manager and staff may set it, with who and when', async () => {
    expect(await get()).toEqual({
      mode: 'open',
      extra_prep_minutes: null,
      until: null,
      changed_by: null,
      changed_at: null,
    });
    for (const [user, body] of [
      [team.owner, { mode: 'busy', extra_prep_minutes: 20 }],
      [team.manager, { mode: 'paused' }],
      [team.staff, { mode: 'open' }],
    ] as const) {
      const answer = expectOk(await put(user.headers, body));
      expect(answer).toMatchObject({ ...body, changed_by: user.uuid });
      expect(new Date(answer.changed_at).getTime()).toBeGreaterThan(Date.now() - MINUTE);
      expect(await get()).toEqual(answer);
    }
    const [row] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM business_availability_changes WHERE business_uuid = $1`,
      [shop.business.uuid],
    );
    expect(row.n).toBe(3);
  });

  it('is 404 for a business the caller has no part in, and changes nothing', async () => {
    const before = await changes();
    expectError(await put(team.outsider.headers, { mode: 'paused' }), 404, 'NOT_FOUND');
    expectError(await t.http.get(path()).set(team.outsider.headers), 404, 'NOT_FOUND');
    expectError(await put(team.owner.headers, { mode: 'paused' }, team.other), 404, 'NOT_FOUND');
    expectError(
      await t.http.put(path()).set(apiHeaders(t)).send({ mode: 'paused' }),
      401,
      'UNAUTHENTICATED',
    );
    expect(await changes()).toBe(before);
    expect((await get()).mode).toBe('open');
    expect((await get(team.other, team.outsider.headers)).mode).toBe('open');
  });

  it('refuses a bad switch with 400 naming the field, storing nothing', async () => {
    const now = clock.nowMs();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mode: 'closed' }, 'mode'],
      [{ mode: 'busy' }, 'extra_prep_minutes'],
      [{ mode: 'busy', extra_prep_minutes: null }, 'extra_prep_minutes'],
      [{ mode: 'busy', extra_prep_minutes: 4 }, 'extra_prep_minutes'],
      [{ mode: 'busy', extra_prep_minutes: 181 }, 'extra_prep_minutes'],
      [{ mode: 'paused', extra_prep_minutes: 20 }, 'extra_prep_minutes'],
      [{ mode: 'paused', until: new Date(now - MINUTE).toISOString() }, 'until'],
      [{ mode: 'paused', until: new Date(now + 12 * 60 * MINUTE + MINUTE).toISOString() }, 'until'],
      [{ mode: 'paused', until: 'tonight' }, 'until'],
    ];
    const before = await changes();
    for (const [body, field] of cases) {
      const res = await put(team.owner.headers, body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await changes()).toBe(before);
    expect((await get()).mode).toBe('open');
    const business = expectOk(
      await t.http.get(entityPath(t, 'business', shop.business.uuid)).set(team.owner.headers),
    );
    expect(business.extra_data).not.toHaveProperty('availability');
  });

  it('paused refuses orders for now with resumes_at, takes orders for later, and resumes at until', async () => {
    const until = new Date(clock.nowMs() + 30 * MINUTE).toISOString();
    expectOk(await put(team.staff.headers, { mode: 'paused', until }));
    const before = await rowCounts(t);
    const refused = await placeOrderRequest(t, orderBody(shop));
    expectError(refused, 422, 'UNPROCESSABLE');
    expect(refused.body.error.details[0]).toMatchObject({
      field: 'menu_uuid',
      paused: true,
      resumes_at: until,
    });
    expect(await rowCounts(t)).toEqual(before);
    // An order for later is still welcome.
    await placeOrder(t, orderBody(shop, { requested_time: later(120).toISOString() }));
    const front = expectOk(await storefront());
    expect(front.availability).toEqual({ mode: 'paused', extra_prep_minutes: null, until });

    clock.set(new Date(new Date(until).getTime() + 1));
    expect((await get()).mode).toBe('open');
    await placeOrder(t, orderBody(shop));
    expect(expectOk(await storefront()).availability.mode).toBe('open');
  });

  it('busy adds its minutes to the ready time on acceptance, the earliest slot and the wait', async () => {
    expectOk(await put(team.manager.headers, { mode: 'busy', extra_prep_minutes: 20 }));
    const order = await placeOrder(t, orderBody(shop));
    const before = Date.now();
    const accepted = expectOk(
      await updateOrderRequest(t, team.staff.headers, order.uuid, { status: 'accepted' }),
    );
    const ready = new Date(accepted.estimated_ready_at).getTime();
    expect(ready).toBeGreaterThanOrEqual(before + 35 * MINUTE - 1000);
    expect(ready).toBeLessThanOrEqual(Date.now() + 35 * MINUTE + 1000);
    // A slot 30 minutes ahead was fine at 15 minutes' prep; busy, it needs 35.
    const soon = later(16);
    {
      expectError(
        await placeOrderRequest(t, orderBody(shop, { requested_time: soon.toISOString() })),
        422,
        'UNPROCESSABLE',
      );
    }
    const front = expectOk(await storefront());
    expect(front.availability).toEqual({ mode: 'busy', extra_prep_minutes: 20, until: null });
    expect(front.estimated_wait_minutes).toBe(35);
  });

  it('the storefront and its ETag follow every change at once, cache or not', async () => {
    const first = await storefront();
    expect(expectOk(first)).toMatchObject({
      availability: { mode: 'open', extra_prep_minutes: null, until: null },
      estimated_wait_minutes: 15,
    });
    const etag = first.headers.etag;
    expect((await storefront().set('If-None-Match', etag)).status).toBe(304);
    expectOk(await put(team.owner.headers, { mode: 'busy', extra_prep_minutes: 45 }));
    const after = await storefront().set('If-None-Match', etag);
    expect(after.status).toBe(200);
    expect(expectOk(after)).toMatchObject({
      availability: { mode: 'busy', extra_prep_minutes: 45 },
      estimated_wait_minutes: 60,
    });
  });

  it('accepting_orders false reads as paused; setting open switches it back on', async () => {
    const businessPath = entityPath(t, 'business', shop.business.uuid);
    const business = expectOk(await t.http.get(businessPath).set(team.owner.headers));
    expectOk(
      await t.http
        .put(businessPath)
        .set(team.owner.headers)
        .send({ ...business, extra_data: { ...business.extra_data, accepting_orders: false } }),
    );
    expect(await get()).toMatchObject({ mode: 'paused', until: null });
    const refused = await placeOrderRequest(t, orderBody(shop));
    expectError(refused, 422, 'UNPROCESSABLE');
    expect(refused.body.error.details[0]).toMatchObject({
      field: 'menu_uuid',
      paused: true,
      resumes_at: null,
    });
    expect(expectOk(await storefront()).availability.mode).toBe('paused');
    expectOk(await put(team.staff.headers, { mode: 'open' }));
    const stored = expectOk(await t.http.get(businessPath).set(team.owner.headers));
    expect(stored.extra_data.accepting_orders).toBe(true);
    await placeOrder(t, orderBody(shop));
  });

  it('a PUT of the business record keeps the switch as it is', async () => {
    expectOk(await put(team.owner.headers, { mode: 'busy', extra_prep_minutes: 30 }));
    const businessPath = entityPath(t, 'business', shop.business.uuid);
    const business = expectOk(await t.http.get(businessPath).set(team.owner.headers));
    const { availability: _kept, ...rest } = business.extra_data;
    expectOk(
      await t.http
        .put(businessPath)
        .set(team.owner.headers)
        .send({ ...business, extra_data: { ...rest, availability: { mode: 'open' } } }),
    );
    expect(await get()).toMatchObject({ mode: 'busy', extra_prep_minutes: 30 });
  });

  it('sends business.availability_changed to the owner’s webhooks', async () => {
    expectOk(
      await t.http
        .post(`${t.core}/webhooks`)
        .set(team.owner.headers)
        .send({ url: receiver.url('/pace'), events: ['business.availability_changed'] }),
      201,
    );
    const until = new Date(clock.nowMs() + 60 * MINUTE).toISOString();
    expectOk(await put(team.staff.headers, { mode: 'paused', until }));
    await t.app.get(OutboxWorker).drain();
    const bodies = receiver.received
      .filter((r) => r.path === '/pace')
      .map((r) => JSON.parse(r.body));
    expect(bodies).toEqual([
      expect.objectContaining({
        type: 'business.availability_changed',
        data: {
          business_uuid: shop.business.uuid,
          availability: expect.objectContaining({
            mode: 'paused',
            until,
            changed_by: team.staff.uuid,
          }),
        },
      }),
    ]);
  });
});

describe('the kitchen’s switch across two service processes on one database', () => {
  serverOnly(
    'a change through one process shows at once in the storefront of another',
    async () => {
      const db = await createTestDatabase();
      const env = { STOREFRONT_CACHE_TTL_MS: '60000' };
      let writer: TestApp | undefined;
      let reader: TestApp | undefined;
      try {
        writer = await startTestApp(env, { database: db });
        reader = await startTestApp(env, { database: db });
        const owner = await createUser(writer);
        const catalog = await newCatalog(writer, owner);
        const url = `${reader.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`;
        const mode = async () =>
          expectOk(await reader!.http.get(url).set(apiHeaders(reader!))).availability.mode;
        expect(await mode()).toBe('open');
        expect(await mode()).toBe('open'); // now from the reader's cache
        expectOk(
          await writer.http
            .put(`${writer.core}/businesses/${catalog.business.uuid}/availability`)
            .set(owner.headers)
            .send({ mode: 'paused' }),
        );
        let seen = await mode();
        for (let i = 0; i < 40 && seen !== 'paused'; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          seen = await mode();
        }
        expect(seen).toBe('paused');
      } finally {
        await writer?.close();
        await reader?.close();
        await db.drop();
      }
    },
  );
});
