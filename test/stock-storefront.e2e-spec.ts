import { Clock } from '../src/common/clock';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import {
  cartLine,
  orderBody,
  placeOrder,
  placeOrderRequest,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const ALL_DAY = [['00:00', '24:00']];
const LAGOS = {
  timezone: 'Africa/Lagos',
  weekly: Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ALL_DAY]),
  ),
};

// R97: the storefront shows what remains today, sold out at 0, never stale after a change.
describe('stock in the storefront: stock_remaining today and available false at 0, never stale', () => {
  let t: TestApp;
  let owner: TestUser;
  let clock: Clock;
  let shop: Catalog;

  beforeAll(async () => {
    // The in-process cache is on (its default): each change must reach the next answer anyway.
    t = await startTestApp();
    clock = t.app.get(Clock);
    owner = await createUser(t);
    shop = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: LAGOS } },
      items: [
        { title_name: 'Jollof', extra_data: { stock: { mode: 'daily', quantity: 2, low_at: 1 } } },
        { title_name: 'Water' },
      ],
    });
  });
  afterEach(() => clock.reset());
  afterAll(() => t?.close());

  const [JOLLOF, WATER] = [0, 1];

  async function storefront(): Promise<any[]> {
    const res = await t.http
      .get(`${t.core}/storefront/${shop.business.meta_key}/menu/${shop.menu.meta_key}`)
      .set(apiHeaders(t));
    return expectOk(res).items;
  }
  const jollof = async () =>
    (await storefront()).find((item) => item.uuid === shop.items[JOLLOF].uuid);

  const one = () => orderBody(shop, { amount: 10, cart_items: [cartLine(shop.items[JOLLOF], 1)] });

  it('shows stock_remaining beside uuid on stocked items only, and follows every take, return and restock at once', async () => {
    clock.set(new Date('2026-08-10T09:00:00Z'));
    const items = await storefront();
    const stocked = items.find((item) => item.uuid === shop.items[JOLLOF].uuid);
    expect(Object.keys(stocked).slice(0, 2)).toEqual(['uuid', 'stock_remaining']);
    expect(stocked.stock_remaining).toBe(2);
    expect(stocked.extra_data.available).not.toBe(false);
    const plain = items.find((item) => item.uuid === shop.items[WATER].uuid);
    expect(plain).not.toHaveProperty('stock_remaining');

    const first = await placeOrder(t, one());
    expect(await jollof()).toMatchObject({ stock_remaining: 1 });
    await placeOrder(t, one());
    const soldOut = await jollof();
    expect(soldOut.stock_remaining).toBe(0);
    expect(soldOut.extra_data.available).toBe(false);
    expectError(await placeOrderRequest(t, one()), 422, 'UNPROCESSABLE');

    expectOk(await updateOrderRequest(t, owner.headers, first.uuid, { status: 'rejected' }));
    const back = await jollof();
    expect(back.stock_remaining).toBe(1);
    expect(back.extra_data.available).not.toBe(false);

    expectOk(
      await t.http
        .post(`${t.core}/businesses/${shop.business.uuid}/stock/${shop.items[JOLLOF].uuid}/adjust`)
        .set(owner.headers)
        .send({ delta: 4, reason: 'restock' }),
    );
    expect(await jollof()).toMatchObject({ stock_remaining: 5 });
  });

  it('sells out before the business’s midnight and is whole again after it, with no write in between', async () => {
    clock.set(new Date('2026-08-11T22:00:00Z')); // 23:00 in Lagos
    await placeOrder(t, one());
    await placeOrder(t, one());
    expect((await jollof()).extra_data.available).toBe(false);
    clock.set(new Date('2026-08-11T23:00:30Z')); // 00:00:30 on the 12th in Lagos
    const morning = await jollof();
    expect(morning.stock_remaining).toBe(2);
    expect(morning.extra_data.available).not.toBe(false);
    await placeOrder(t, one());
  });
});
