import { Clock } from '../src/common/clock';
import { countUsers, registerBody } from './support/account';
import { asGuest, CardPayments, startCardPayments } from './support/card-payments';
import { Catalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, TestUser } from './support/factory';
import { FakePaystack } from './support/fake-paystack';
import { cartLine, orderBody, placeOrder, randomIp } from './support/order';
import { TestApp } from './support/test-app';

// R67: rate limits.
/** What a stranger can repeat is limited: sign-up, and a guest's verify and new checkout. */
describe('rate limits on what a stranger can repeat', () => {
  let fake: FakePaystack;
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;
  let clock: Clock;
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      env: {
        RATE_LIMIT_AUTH_PER_MINUTE: '3',
        RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE: '3',
        RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE: '5',
      },
    });
    ({ fake, t, owner, catalog } = card);
    clock = t.app.get(Clock);
  });
  afterAll(() => card?.close());
  // Each test starts at the beginning of a window of its own, so none straddles two.
  let window = 0;
  beforeEach(() => {
    window += 1;
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + window * 120_000));
  });
  afterAll(() => clock?.reset());

  const register = (ip: string, body = registerBody()) =>
    t.http
      .post(`${t.core}/user/register`)
      .set({ ...apiHeaders(t), 'x-forwarded-for': ip })
      .send(body);

  function expectRateLimited(res: { status: number; headers: Record<string, string> } & any) {
    expectError(res, 429, 'RATE_LIMITED');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  it('limits sign-up per IP as login is (RATE_LIMIT_AUTH_PER_MINUTE): 429 stores nothing', async () => {
    const ip = randomIp();
    for (let i = 0; i < 3; i += 1) expectOk(await register(ip), 201);
    const users = await countUsers(t);
    const body = registerBody();
    expectRateLimited(await register(ip, body));
    expect(await countUsers(t)).toBe(users);
    // The 409 of a taken email is not answered either: the limit comes first.
    expectRateLimited(await register(ip, { ...registerBody(), email: owner.email }));
    // Another address is not affected.
    expectOk(await register(randomIp(), body), 201);
  });

  it('counts parallel sign-ups exactly', async () => {
    const ip = randomIp();
    const users = await countUsers(t);
    const results = await Promise.all(Array.from({ length: 7 }, () => register(ip)));
    expect(results.filter((res) => res.status === 201)).toHaveLength(3);
    for (const res of results.filter((res) => res.status !== 201)) expectRateLimited(res);
    expect(await countUsers(t)).toBe(users + 3);
  });

  async function cardOrder() {
    return placeOrder(
      t,
      orderBody(catalog, {
        payment_processor: 'paystack',
        cart_items: [cartLine(catalog.items[0])],
      }),
    );
  }
  const retry = (order: { uuid: string; order_token: string }, ip = randomIp()) =>
    t.http.post(`${t.orders}/order/${order.uuid}/payment`).set(asGuest(t, order, ip));
  const verify = (order: { uuid: string; order_token: string }, ip = randomIp()) =>
    t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(asGuest(t, order, ip));

  async function attempts(uuid: string): Promise<number> {
    const [row] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE order_uuid = $1 AND channel = 'checkout'`,
      [uuid],
    );
    return row.n;
  }

  it("limits a guest's new checkouts per order, whatever the address; 429 opens nothing", async () => {
    const order = await cardOrder();
    for (let i = 0; i < 3; i += 1) expectOk(await retry(order));
    const calls = fake.initialized.length;
    const opened = await attempts(order.uuid);
    expectRateLimited(await retry(order));
    expect(fake.initialized.length).toBe(calls);
    expect(await attempts(order.uuid)).toBe(opened);
  });

  it('counts parallel checkouts of one order exactly: one Paystack call per one let through', async () => {
    const order = await cardOrder();
    const calls = fake.initialized.length;
    const opened = await attempts(order.uuid);
    const results = await Promise.all(Array.from({ length: 8 }, () => retry(order)));
    expect(results.filter((res) => res.status === 200)).toHaveLength(3);
    for (const res of results.filter((res) => res.status !== 200)) expectRateLimited(res);
    expect(fake.initialized.length).toBe(calls + 3);
    expect(await attempts(order.uuid)).toBe(opened + 3);
  });

  it("limits a guest's verify per order and per address", async () => {
    const first = await cardOrder();
    const second = await cardOrder();
    const ip = randomIp();
    const verifyCalls = () =>
      fake.calls.filter((call) => call.path.startsWith('/transaction/verify'));
    for (let i = 0; i < 3; i += 1) expectOk(await verify(first, ip));
    const calls = verifyCalls().length;
    // The order's limit, from another address.
    expectRateLimited(await verify(first));
    // The address's limit (5), on another order.
    for (let i = 0; i < 2; i += 1) expectOk(await verify(second, ip));
    expectRateLimited(await verify(second, ip));
    expect(verifyCalls().length).toBe(calls + 2);
    // The owner's own verify is not a stranger's.
    expectOk(
      await t.http.post(`${t.orders}/order/${first.uuid}/payment/verify`).set(owner.headers),
    );
  });
});
