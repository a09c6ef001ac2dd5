import { Clock } from '../src/common/clock';
import { Catalog, entityPath, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  guestHeaders,
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { AJAH, at, destination, IKORODU, LAGOS_ZONES, LEKKI } from './support/zones';

const NOW = '2026-06-01T10:00:00Z';
const FULFILMENT = {
  modes: ['pickup', 'delivery'],
  prep_time_minutes: 20,
  delivery: { minimum_order_amount: '8000.00', zones: LAGOS_ZONES },
};
const ADDRESS = '4 Admiralty Way, Lekki';

// R79: delivery by zone.
describe('placing a delivery priced by its zone', () => {
  let t: TestApp;
  let clock: Clock;
  let owner: TestUser;
  let shop: Catalog;
  let suya: Catalog['items'][number];
  let platter: Catalog['items'][number];

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    owner = await createUser(t);
    shop = await newCatalog(t, owner, {
      menu: { extra_data: { fulfilment: FULFILMENT } },
      items: [{ extra_data: { unit_price_amount: '3500.00' } }],
    });
    suya = shop.items[0];
    platter = await newItem(t, owner, shop.menu, { extra_data: { unit_price_amount: '5000.00' } });
  });
  beforeEach(() => clock.set(new Date(NOW)));
  afterAll(() => {
    clock?.reset();
    return t?.close();
  });

  const line = (item: { uuid: string }, quantity = 1) => ({ uuid: item.uuid, quantity });
  const delivery = (
    place: Record<string, unknown>,
    cart: Array<{ uuid: string; quantity: number }>,
    amount: string,
    extra: Record<string, unknown> = {},
  ) =>
    orderBody(shop, {
      amount,
      delivery_data: { delivery_identifier: '', delivery_address: ADDRESS, ...place },
      cart_items: cart,
      ...extra,
    });

  /** Places a refused body: 422 with one detail on `field`, and nothing stored. */
  async function refused(body: Record<string, unknown>, field: string) {
    const before = await rowCounts(t);
    const res = await placeOrderRequest(t, body);
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0].field).toBe(field);
    expect(await rowCounts(t)).toEqual(before);
    return res.body.error.details[0];
  }

  it.each<[string, Record<string, unknown>, Array<[string, number]>, string, object]>([
    ['Lekki, by point', at(LEKKI), [['suya', 2]], '8500.00', { key: 'lekki', fee: '1500.00' }],
    [
      'on Lekki’s circle',
      at(destination(LEKKI, 3, 270)),
      [['suya', 2]],
      '8500.00',
      { key: 'lekki', fee: '1500.00' },
    ],
    [
      'Ajah, the polygon after it',
      at(AJAH),
      [['suya', 3]],
      '13500.00',
      { key: 'ajah', fee: '3000.00' },
    ],
    [
      'Ikoyi, by name',
      { area: 'IKOYI ' },
      [['suya', 3]],
      '13000.00',
      { key: 'ikoyi', fee: '2500.00' },
    ],
    [
      'Lekki, free at exactly 20000.00',
      at(LEKKI),
      [['platter', 4]],
      '20000.00',
      { key: 'lekki', fee: '0.00' },
    ],
    [
      'Lekki, 19500.00 pays the fee',
      at(LEKKI),
      [
        ['suya', 1],
        ['platter', 3],
      ],
      '20000.00',
      { key: 'lekki', fee: '1500.00' },
    ],
  ])('%s', async (_, place, cart, amount, expected) => {
    const items = { suya, platter };
    const lines = cart.map(([name, quantity]) => line(items[name as 'suya' | 'platter'], quantity));
    const order = await placeOrder(t, delivery(place, lines, amount));
    const { key, fee } = expected as { key: string; fee: string };
    expect(order).toMatchObject({
      fulfilment_type: 'delivery',
      amount,
      delivery_zone: { key, title: LAGOS_ZONES.find((zone) => zone.key === key)!.title },
      estimated_delivery_at: null,
      pricing: { delivery_fee: fee, total: amount },
    });
    // No line stands for the fee: the zone priced it.
    expect(order.items).toHaveLength(lines.length);
    const [row] = await t.dataSource.query(
      'SELECT delivery_zone, delivery_fee::text AS fee, delivery_data FROM orders WHERE uuid = $1',
      [order.uuid],
    );
    expect(row).toMatchObject({ delivery_zone: { key }, fee: fee });
    expect(row.delivery_data).toMatchObject({ delivery_address: ADDRESS, ...place });
  });

  it('refuses a place outside every zone, naming the nearest', async () => {
    const detail = await refused(
      delivery(at(IKORODU), [line(suya, 3)], '13500.00'),
      'delivery_data',
    );
    expect(detail).toMatchObject({
      message: expect.stringMatching(
        /^outside the delivery area; the nearest zone is Lekki to Ajah/,
      ),
      nearest_zone: { key: 'ajah', title: 'Lekki to Ajah' },
    });
  });

  it('refuses an unknown area without naming a zone', async () => {
    const detail = await refused(
      delivery({ area: 'Ikorodu' }, [line(suya, 3)], '13500.00'),
      'delivery_data',
    );
    expect(detail).toMatchObject({ nearest_zone: null });
    expect(detail.message).toMatch(/^outside the delivery area/);
  });

  it('needs a point or an area, and still an address', async () => {
    await refused(delivery({}, [line(suya, 3)], '13500.00'), 'delivery_data');
    await refused(
      delivery({ ...at(LEKKI), delivery_address: '' }, [line(suya, 3)], '12000.00', {
        fulfilment_type: 'delivery',
      }),
      'delivery_data.delivery_address',
    );
  });

  it('takes the zone’s minimum, else the mode’s', async () => {
    // Lekki's own minimum is 5000.00.
    expect(await refused(delivery(at(LEKKI), [line(suya)], '5000.00'), 'cart_items')).toMatchObject(
      {
        minimum_order_amount: '5000.00',
        shortfall: '1500.00',
        message: expect.stringContaining('delivery to Lekki Phase 1'),
      },
    );
    // Ajah names none: the delivery mode's 8000.00.
    expect(
      await refused(delivery(at(AJAH), [line(suya, 2)], '10000.00'), 'cart_items'),
    ).toMatchObject({
      minimum_order_amount: '8000.00',
      shortfall: '1000.00',
    });
  });

  it('refuses a line of category Delivery: the zone prices delivery', async () => {
    const area = await newItem(t, owner, shop.menu, {
      extra_data: { category: 'Delivery', unit_price_amount: '1000.00' },
    });
    await refused(delivery(at(LEKKI), [line(suya, 2), line(area)], '9500.00'), 'cart_items');
    await t.http.delete(entityPath(t, 'business_menu_item', area.uuid)).set(owner.headers);
  });

  it('refuses an amount without the zone’s fee', async () => {
    const detail = await refused(delivery(at(LEKKI), [line(suya, 2)], '7000.00'), 'amount');
    expect(detail).toMatchObject({ computed_total: '8500.00' });
  });

  it('leaves pickup from the same menu as it was', async () => {
    const order = await placeOrder(
      t,
      orderBody(shop, {
        amount: '7000.00',
        fulfilment_type: 'pickup',
        cart_items: [line(suya, 2)],
      }),
    );
    expect(order).toMatchObject({
      fulfilment_type: 'pickup',
      delivery_zone: null,
      estimated_delivery_at: null,
      pricing: { delivery_fee: '0.00' },
    });
  });

  it('estimates the delivery from the ready time and the zone’s minutes', async () => {
    const order = await placeOrder(t, delivery(at(LEKKI), [line(suya, 2)], '8500.00'));
    const accepted = expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }),
    );
    // Accepted now: ready after the menu's 20 minutes, delivered 45 minutes later.
    const ready = Date.parse(accepted.estimated_ready_at);
    expect(ready - Date.parse(NOW)).toBeGreaterThanOrEqual(20 * 60_000);
    expect(Date.parse(accepted.estimated_delivery_at) - ready).toBe(45 * 60_000);
    const moved = expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, {
        estimated_ready_at: '2026-06-01T10:40:00Z',
      }),
    );
    expect(moved.estimated_delivery_at).toBe('2026-06-01T11:25:00.000Z');
    const guest = expectOk(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': order.order_token }),
    );
    expect(guest).toMatchObject({
      delivery_zone: { key: 'lekki', title: 'Lekki Phase 1' },
      estimated_delivery_at: '2026-06-01T11:25:00.000Z',
    });
  });

  it('has no estimated delivery for a zone without minutes', async () => {
    const order = await placeOrder(t, delivery({ area: 'Obalende' }, [line(suya, 3)], '13000.00'));
    const accepted = expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }),
    );
    expect(accepted).toMatchObject({
      delivery_zone: { key: 'ikoyi' },
      estimated_delivery_at: null,
    });
    expect(accepted.estimated_ready_at).not.toBeNull();
  });

  it('keeps the zone an order was placed with when the owner renames it', async () => {
    const order = await placeOrder(t, delivery(at(LEKKI), [line(suya, 2)], '8500.00'));
    const renamed = [
      { ...LAGOS_ZONES[0], title: 'Lekki (all phases)', fee: '1800.00' },
      ...LAGOS_ZONES.slice(1),
    ];
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu', shop.menu.uuid))
        .set(owner.headers)
        .send({
          extra_data: {
            fulfilment: { ...FULFILMENT, delivery: { ...FULFILMENT.delivery, zones: renamed } },
          },
        }),
    );
    const next = await placeOrder(t, delivery(at(LEKKI), [line(suya, 2)], '8800.00'));
    expect(next.delivery_zone).toEqual({ key: 'lekki', title: 'Lekki (all phases)' });
    const detail = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
    expect(detail.delivery_zone).toEqual({ key: 'lekki', title: 'Lekki Phase 1' });
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu', shop.menu.uuid))
        .set(owner.headers)
        .send({ extra_data: { fulfilment: FULFILMENT } }),
    );
  });

  it('prices the zone in the order quote too, and answers its problems', async () => {
    const quote = (body: Record<string, unknown>) =>
      t.http.post(`${t.orders}/order/quote`).set(guestHeaders(t)).send(body);
    const priced = expectOk(await quote(delivery(at(AJAH), [line(suya, 3)], '13500.00')));
    expect(priced).toMatchObject({
      pricing: { delivery_fee: '3000.00', total: '13500.00' },
      problems: [],
    });
    const { amount: _amount, ...unpriced } = delivery(at(IKORODU), [line(suya, 3)], '');
    const outside = expectOk(await quote(unpriced));
    expect(outside.problems).toEqual([
      expect.objectContaining({
        field: 'delivery_data',
        nearest_zone: { key: 'ajah', title: 'Lekki to Ajah' },
      }),
    ]);
  });
});

describe('a delivery from a menu without zones', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  it('is priced by its Delivery line as before, whatever place it names', async () => {
    const shop = await newCatalog(t, owner, {
      menu: { extra_data: { fulfilment: { modes: ['delivery'] } } },
      items: [
        { extra_data: { unit_price_amount: '3500.00' } },
        { extra_data: { category: 'Delivery', unit_price_amount: '1500.00' } },
      ],
    });
    const order = await placeOrder(
      t,
      orderBody(shop, {
        amount: '5000.00',
        delivery_data: { delivery_address: ADDRESS, ...at(IKORODU), area: 'Ikorodu' },
      }),
    );
    expect(order).toMatchObject({
      fulfilment_type: 'delivery',
      delivery_zone: null,
      estimated_delivery_at: null,
      pricing: { delivery_fee: '1500.00', total: '5000.00' },
    });
  });
});
