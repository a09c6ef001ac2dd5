import { randomBytes } from 'node:crypto';
import { Response } from 'supertest';
import { Clock } from '../src/common/clock';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrderRequest, randomIp, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { serverOnly } from './support/server-only';

const randomCode = () => `GUESS-${randomBytes(5).toString('hex').toUpperCase()}`;

/** The start of a fresh rate-limit minute, some minutes ahead of the real clock. */
function freshMinute(minutesAhead: number): Date {
  return new Date(Math.ceil(Date.now() / 60_000) * 60_000 + minutesAhead * 60_000);
}

function expectRateLimited(res: Response): void {
  expectError(res, 429, 'RATE_LIMITED');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

// R71: guessing is limited.
describe('guessing discount codes is limited', () => {
  let t: TestApp;
  let clock: Clock;
  let owner: TestUser;
  let shop: Catalog;
  let otherMenu: Catalog;
  let known: string;
  let minute = 0;

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    owner = await createUser(t);
    shop = await newCatalog(t, owner);
    otherMenu = await newCatalog(t, owner);
    known = randomCode();
    expectOk(
      await t.http
        .post(`${t.core}/businesses/${shop.business.uuid}/discounts`)
        .set(owner.headers)
        .send({ code: known, kind: 'percent', value: '10' }),
      201,
    );
  });
  // Each test in a minute of its own, from its first second.
  beforeEach(() => clock.set(freshMinute((minute += 2))));
  afterAll(() => {
    clock?.reset();
    return t?.close();
  });

  function quote(catalog: Catalog, ip: string, code?: string) {
    const body: Record<string, unknown> = orderBody(catalog);
    delete body.amount;
    if (code !== undefined) body.discount_code = code;
    return t.http.post(`${t.orders}/order/quote`).set(guestHeaders(t, ip)).send(body);
  }

  function place(catalog: Catalog, ip: string, code?: string) {
    const discounted = code === known ? { amount: 9 } : {};
    const body = orderBody(
      catalog,
      code === undefined ? {} : { discount_code: code, ...discounted },
    );
    return placeOrderRequest(t, body, guestHeaders(t, ip));
  }

  it('100 quotes with unknown codes from one IP: 10 are priced, every other one is 429 with Retry-After', async () => {
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => quote(shop, ip, randomCode())),
    );
    const priced = answers.filter((res) => res.status === 200);
    expect(priced).toHaveLength(10);
    for (const res of priced) {
      expect(expectOk(res).problems).toEqual([
        expect.objectContaining({
          field: 'discount_code',
          message: expect.stringContaining('not valid'),
        }),
      ]);
    }
    const refused = answers.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(90);
    refused.forEach(expectRateLimited);

    // Any code is held back now, a known one too, in a quote or a placement, storing nothing.
    expectRateLimited(await quote(shop, ip, known));
    const before = await rowCounts(t);
    expectRateLimited(await place(shop, ip, known));
    expect(await rowCounts(t)).toEqual(before);
    // Without a code, the same IP is not held back.
    expect(expectOk(await place(shop, ip), 201).pricing.discount).toBe('0.00');
    // Another IP, and the same IP on another menu, are not affected.
    expect(expectOk(await quote(shop, randomIp(), known)).pricing.discount).toBe('1.00');
    // (This IP's quote allowance is spent by now: a placement carries the code instead.)
    const elsewhere = await place(otherMenu, ip, randomCode());
    expectError(elsewhere, 422, 'UNPROCESSABLE');
    expect(elsewhere.body.error.details[0].field).toBe('discount_code');

    // Until the minute ends.
    clock.advance(60_000);
    expect(expectOk(await quote(shop, ip, known)).pricing.discount).toBe('1.00');
  });

  it('counts unknown codes of placements too; known codes and requests without one use none of it', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expectOk(await quote(shop, ip, known));
      expectOk(await place(shop, ip, known), 201);
      expectOk(await quote(shop, ip));
    }
    for (let i = 0; i < 10; i++) {
      const res = await place(shop, ip, randomCode());
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('discount_code');
    }
    expectRateLimited(await quote(shop, ip, known));
    expectRateLimited(await place(shop, ip, randomCode()));
    expectOk(await quote(shop, ip));
  });

  it('quotes have an allowance of their own per IP, and no longer spend the order allowance', async () => {
    const ip = randomIp();
    for (let i = 0; i < 60; i++) expectOk(await quote(shop, ip));
    expectRateLimited(await quote(shop, ip));
    expectRateLimited(await quote(shop, ip, known));
    expectOk(await quote(shop, randomIp()));
    // The placement allowance (30 a minute) is whole after 60 quotes.
    const placed = await Promise.all(Array.from({ length: 30 }, () => place(shop, ip)));
    expect(placed.map((res) => res.status)).toEqual(Array(30).fill(201));
    expectRateLimited(await place(shop, ip));
  });

  serverOnly('counts the unknown codes tried on two replicas together', async () => {
    const other = await startTestApp(
      {},
      { database: { env: { DATABASE_URL: t.config.databaseUrl! }, drop: async () => {} } },
    );
    try {
      other.app.get(Clock).set(clock.now());
      const ip = randomIp();
      const both = [t, other];
      for (let i = 0; i < 10; i++) {
        const app = both[i % 2];
        const body: Record<string, unknown> = { ...orderBody(shop), discount_code: randomCode() };
        delete body.amount;
        expectOk(
          await app.http.post(`${app.orders}/order/quote`).set(guestHeaders(app, ip)).send(body),
        );
      }
      for (const app of both) {
        const body: Record<string, unknown> = { ...orderBody(shop), discount_code: known };
        delete body.amount;
        expectRateLimited(
          await app.http.post(`${app.orders}/order/quote`).set(guestHeaders(app, ip)).send(body),
        );
      }
    } finally {
      await other.close();
    }
  });
});
