import { Catalog, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

// R50: modes.
// R51: inference.
// R52: minimums.
describe('fulfilment at placement: modes, address, delivery line, location, minimum', () => {
  let t: TestApp;
  let owner: TestUser;
  /** No fulfilment settings: the behaviour of before. */
  let plain: Catalog;
  /** Pickup and delivery only; delivery needs 15.00 of items and one delivery area line. */
  let shop: Catalog;
  let food: Catalog['items'][number];
  let zoneA: Catalog['items'][number];
  let zoneB: Catalog['items'][number];

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    plain = await newCatalog(t, owner);
    shop = await newCatalog(t, owner, {
      menu: {
        extra_data: {
          fulfilment: {
            modes: ['pickup', 'delivery'],
            delivery: { minimum_order_amount: '15.00' },
            pickup: { minimum_order_amount: '0' },
          },
        },
      },
      items: [{ extra_data: { unit_price_amount: '10.00' } }],
    });
    food = shop.items[0];
    zoneA = await newItem(t, owner, shop.menu, {
      extra_data: { category: 'Delivery', unit_price_amount: '2.00' },
    });
    zoneB = await newItem(t, owner, shop.menu, {
      extra_data: { category: 'Delivery', unit_price_amount: '3.50' },
    });
  });
  afterAll(() => t?.close());

  const line = (item: { uuid: string }, quantity = 1) => ({ uuid: item.uuid, quantity });
  const address = { delivery_identifier: '', delivery_address: '5 Long Road' };
  const table = {
    customer_onpremise_location_type: 'Table',
    customer_onpremise_location_number: '4',
    customer_onpremise_location: 'Table_4',
  };

  describe('without fulfilment settings, as clients of today send', () => {
    it('infers pickup, and every view carries it', async () => {
      const order = await placeOrder(t, orderBody(plain));
      expect(order).toMatchObject({
        fulfilment_type: 'pickup',
        requested_time: null,
        estimated_ready_at: null,
      });
      const detail = expectOk(
        await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers),
      );
      expect(detail.fulfilment_type).toBe('pickup');
      expect(detail).toHaveProperty('estimated_ready_at', null);
      const guest = expectOk(
        await t.http
          .get(`${t.orders}/order/${order.uuid}`)
          .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': order.order_token }),
      );
      expect(guest).toMatchObject({ fulfilment_type: 'pickup', requested_time: null });
      const [row] = await t.dataSource.query('SELECT fulfilment_type FROM orders WHERE uuid = $1', [
        order.uuid,
      ]);
      expect(row.fulfilment_type).toBe('pickup');
    });

    it('infers delivery from an address, dine-in from a location', async () => {
      expect(
        (await placeOrder(t, orderBody(plain, { delivery_data: address }))).fulfilment_type,
      ).toBe('delivery');
      expect(
        (await placeOrder(t, orderBody(plain, { onpremise_data: table }))).fulfilment_type,
      ).toBe('dine_in');
    });

    it('infers delivery from a line of category Delivery before a location', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [{}, { extra_data: { category: 'Delivery', unit_price_amount: '1.00' } }],
      });
      const order = await placeOrder(
        t,
        orderBody(catalog, { onpremise_data: table, delivery_data: address }),
      );
      expect(order.fulfilment_type).toBe('delivery');
    });

    it('checks the rules of a type the client names', async () => {
      const before = await rowCounts(t);
      const res = await placeOrderRequest(t, orderBody(plain, { fulfilment_type: 'delivery' }));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('delivery_data.delivery_address');
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  describe('with fulfilment settings', () => {
    it('takes a delivery with one area line and the minimum reached', async () => {
      const order = await placeOrder(
        t,
        orderBody(shop, {
          amount: '22.00',
          delivery_data: address,
          cart_items: [line(food, 2), line(zoneA)],
        }),
      );
      expect(order.fulfilment_type).toBe('delivery');
    });

    it('takes an explicit pickup with an address left in the body', async () => {
      const order = await placeOrder(
        t,
        orderBody(shop, {
          amount: '10.00',
          fulfilment_type: 'pickup',
          delivery_data: address,
          cart_items: [line(food)],
        }),
      );
      expect(order.fulfilment_type).toBe('pickup');
    });

    async function expectRefused(body: Record<string, unknown>, field: string) {
      const before = await rowCounts(t);
      const res = await placeOrderRequest(t, orderBody(shop, body));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toMatch(
        new RegExp(`^${field.replace(/\./g, '\\.')}`),
      );
      expect(await rowCounts(t)).toEqual(before);
      return res.body.error.details[0];
    }

    it('refuses a mode the menu does not offer, inferred or sent', async () => {
      const detail = await expectRefused(
        { amount: '10.00', onpremise_data: table, cart_items: [line(food)] },
        'fulfilment_type',
      );
      expect(detail.offered).toEqual(['pickup', 'delivery']);
      await expectRefused(
        { amount: '10.00', fulfilment_type: 'dine_in', cart_items: [line(food)] },
        'fulfilment_type',
      );
    });

    it('refuses a delivery without an address', async () => {
      await expectRefused(
        { amount: '22.00', fulfilment_type: 'delivery', cart_items: [line(food, 2), line(zoneA)] },
        'delivery_data.delivery_address',
      );
    });

    it('refuses a delivery without a delivery area line, or with two', async () => {
      const none = await expectRefused(
        { amount: '20.00', delivery_data: address, cart_items: [line(food, 2)] },
        'cart_items',
      );
      expect(none.delivery_lines).toBe(0);
      // Named rather than inferred from the address: the same refusal.
      const named = await expectRefused(
        {
          amount: '20.00',
          fulfilment_type: 'delivery',
          delivery_data: address,
          cart_items: [line(food, 2)],
        },
        'cart_items',
      );
      expect(named.delivery_lines).toBe(0);
      await expectRefused(
        {
          amount: '25.50',
          delivery_data: address,
          cart_items: [line(food, 2), line(zoneA), line(zoneB)],
        },
        'cart_items',
      );
    });

    it('refuses a basket under the minimum, naming the minimum and the shortfall', async () => {
      const detail = await expectRefused(
        { amount: '12.00', delivery_data: address, cart_items: [line(food), line(zoneA)] },
        'cart_items',
      );
      expect(detail).toMatchObject({ minimum_order_amount: '15.00', shortfall: '5.00' });
      expect(detail.message).toContain('15.00');
      expect(detail.message).toContain('5.00 short');
    });

    it('refuses dine-in without a location', async () => {
      const catalog = await newCatalog(t, owner, {
        menu: { extra_data: { fulfilment: { modes: ['dine_in'] } } },
      });
      const before = await rowCounts(t);
      const res = await placeOrderRequest(t, orderBody(catalog, { fulfilment_type: 'dine_in' }));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('onpremise_data.customer_onpremise_location');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('refuses an unknown fulfilment_type with 400', async () => {
      const res = await placeOrderRequest(t, orderBody(shop, { fulfilment_type: 'drone' }));
      expectError(res, 400, 'VALIDATION_FAILED');
    });
  });
});
