import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const PRICING = {
  tax: { label: 'VAT', rate_percent: '7.5', inclusive: false, applies_to_delivery: false },
  service_charge: { label: 'Service', rate_percent: '10', modes: ['dine_in'] },
  tips: { enabled: true, presets_percent: [5, 10, 15] },
};

const DINE_IN = {
  customer_onpremise_location_type: 'Table',
  customer_onpremise_location_number: '4',
  customer_onpremise_location: 'Table_4',
};

// R57: pricing settings.
// R58: seven pricing steps.
// R60: quote.
describe('money: pricing settings, the price in lines, and the quote', () => {
  let t: TestApp;
  let owner: TestUser;
  let priced: Catalog;
  let plain: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    priced = await newCatalog(t, owner, {
      business: { extra_data: { pricing: PRICING } },
      items: [
        { title_name: 'Jollof', extra_data: { unit_price_amount: '25.00' } },
        { title_name: 'Chapman', extra_data: { unit_price_amount: '15.00' } },
        { title_name: 'Delivery', extra_data: { unit_price_amount: '5.00', category: 'Delivery' } },
      ],
    });
    plain = await newCatalog(t, owner, {
      items: [
        { extra_data: { unit_price_amount: '0.10' } },
        { extra_data: { unit_price_amount: '0.20' } },
      ],
    });
  });
  afterAll(() => t?.close());

  const food = (c: Catalog) => c.items.filter((i) => i.extra_data.category !== 'Delivery');

  describe('settings', () => {
    it.each([
      [
        'tax rate above 100',
        { tax: { rate_percent: '100.5' } },
        'extra_data.pricing.tax.rate_percent',
      ],
      [
        'tax rate with 5 decimals',
        { tax: { rate_percent: '7.12345' } },
        'extra_data.pricing.tax.rate_percent',
      ],
      [
        'negative service rate',
        { service_charge: { rate_percent: '-1' } },
        'extra_data.pricing.service_charge.rate_percent',
      ],
      [
        'unknown mode',
        { service_charge: { rate_percent: '10', modes: ['takeaway'] } },
        'extra_data.pricing.service_charge.modes',
      ],
      [
        'six presets',
        { tips: { enabled: true, presets_percent: [1, 2, 3, 4, 5, 6] } },
        'extra_data.pricing.tips.presets_percent',
      ],
      [
        'preset above 100',
        { tips: { enabled: true, presets_percent: [101] } },
        'extra_data.pricing.tips.presets_percent',
      ],
      [
        'inclusive not a boolean',
        { tax: { rate_percent: '5', inclusive: 'yes' } },
        'extra_data.pricing.tax.inclusive',
      ],
      ['pricing not an object', 'VAT', 'extra_data.pricing'],
    ])('refuses %s with 400 naming the path, storing nothing', async (_name, pricing, field) => {
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM entities');
      const res = await t.http
        .post(entityPath(t, 'business'))
        .set(owner.headers)
        .send({
          meta_key: `b-${Math.random().toString(36).slice(2)}`,
          status: 'enabled',
          extra_data: { pricing },
        });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM entities')).toEqual(before);
    });

    it('stores the defaults and shows pricing on the storefront, never discount codes', async () => {
      expect(priced.business.extra_data.pricing).toEqual(PRICING);
      const sparse = await newCatalog(t, owner, {
        business: { extra_data: { pricing: { tax: { rate_percent: 5 } } } },
      });
      expect(sparse.business.extra_data.pricing).toEqual({
        tax: { rate_percent: '5', inclusive: false, applies_to_delivery: false },
      });
      const res = await t.http
        .get(`${t.core}/storefront/${priced.business.meta_key}/menu/${priced.menu.meta_key}`)
        .set(apiHeaders(t));
      const data = expectOk(res);
      expect(data.business.extra_data.pricing).toEqual(PRICING);
      expect(JSON.stringify(data)).not.toContain('discount');
    });
  });

  describe('placement', () => {
    it('an order without pricing settings is priced as before: items only', async () => {
      const order = await placeOrder(t, orderBody(plain, { amount: 0.3 }));
      expect(order.amount).toBe('0.30');
      expect(order.pricing).toEqual({
        items_subtotal: '0.30',
        delivery_fee: '0.00',
        discount: '0.00',
        discount_code: null,
        service_charge: '0.00',
        tax: '0.00',
        tax_inclusive: false,
        tip: '0.00',
        total: '0.30',
      });
    });

    it('adds the service charge for dine-in, the VAT and the tip, and keeps the rates', async () => {
      // 40.00 items; service 10 % = 4.00; VAT 7.5 % of 44.00 = 3.30; tip 2.00; total 49.30
      const body = orderBody(priced, {
        cart_items: food(priced).map((i) => ({ uuid: i.uuid, quantity: 1 })),
        onpremise_data: DINE_IN,
        tip_amount: '2.00',
        amount: '49.30',
      });
      const order = await placeOrder(t, body);
      expect(order.amount).toBe('49.30');
      expect(order.pricing).toMatchObject({
        items_subtotal: '40.00',
        service_charge: '4.00',
        tax: '3.30',
        tip: '2.00',
        total: '49.30',
      });
      const [row] = await t.dataSource.query(
        'SELECT pricing_rates, tax::text FROM orders WHERE uuid = $1',
        [order.uuid],
      );
      expect(row.tax).toBe('3.30');
      expect(row.pricing_rates.tax.rate_percent).toBe('7.5');

      // A later change of settings never reprices the placed order.
      expectOk(
        await t.http
          .put(entityPath(t, 'business', priced.business.uuid))
          .set(owner.headers)
          .send({
            extra_data: { ...priced.business.extra_data, pricing: { tax: { rate_percent: '20' } } },
          }),
      );
      const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(read.pricing.tax).toBe('3.30');
      expect(read.pricing.total).toBe('49.30');
      expectOk(
        await t.http
          .put(entityPath(t, 'business', priced.business.uuid))
          .set(owner.headers)
          .send({ extra_data: priced.business.extra_data }),
      );
    });

    it('charges no service for pickup and leaves delivery untaxed', async () => {
      // 40.00 items + 5.00 delivery; VAT 7.5 % of 40.00 = 3.00; total 48.00
      const order = await placeOrder(
        t,
        orderBody(priced, {
          cart_items: priced.items.map((i) => ({ uuid: i.uuid, quantity: 1 })),
          delivery_data: { delivery_identifier: 'Home', delivery_address: '1 Road' },
          amount: '48.00',
        }),
      );
      expect(order.pricing).toMatchObject({
        items_subtotal: '40.00',
        delivery_fee: '5.00',
        service_charge: '0.00',
        tax: '3.00',
        total: '48.00',
      });
    });

    it.each([
      ['a tip above the items subtotal', priced, { tip_amount: '40.01' }],
      ['a tip where tips are not enabled', null, { tip_amount: '1' }],
      ['a tip with three decimals', priced, { tip_amount: '1.005' }],
    ])('refuses %s with 422 on tip_amount, storing nothing', async (_name, catalog, extra) => {
      const c = catalog ?? plain;
      const before = await rowCounts(t);
      const res = await placeOrderRequest(
        t,
        orderBody(c, { cart_items: food(c).map((i) => ({ uuid: i.uuid, quantity: 1 })), ...extra }),
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('tip_amount');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('refuses an amount that leaves out the tax, with the computed total', async () => {
      const before = await rowCounts(t);
      const res = await placeOrderRequest(
        t,
        orderBody(priced, {
          cart_items: food(priced).map((i) => ({ uuid: i.uuid, quantity: 1 })),
          amount: '40.00',
        }),
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details).toEqual([
        expect.objectContaining({ field: 'amount', computed_total: '43.00' }),
      ]);
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  describe('quote', () => {
    const quote = (body: Record<string, unknown>, ip?: string) =>
      t.http.post(`${t.orders}/order/quote`).set(guestHeaders(t, ip)).send(body);

    it('answers the pricing placement would give, storing nothing', async () => {
      const before = await rowCounts(t);
      const body = orderBody(priced, {
        cart_items: food(priced).map((i) => ({ uuid: i.uuid, quantity: 1 })),
        onpremise_data: DINE_IN,
        tip_amount: 2,
      });
      delete body.amount;
      const data = expectOk(await quote(body));
      expect(data.problems).toEqual([]);
      expect(data.pricing).toMatchObject({ service_charge: '4.00', tax: '3.30', total: '49.30' });
      expect(await rowCounts(t)).toEqual(before);
      const placed = await placeOrder(t, { ...body, amount: data.pricing.total });
      expect(placed.pricing).toEqual(data.pricing);
    });

    it('answers the problems placement would refuse with', async () => {
      const body = orderBody(plain, { tip_amount: '1', amount: '9.99' });
      const data = expectOk(await quote(body));
      expect(data.problems.map((p: { field: string }) => p.field)).toEqual(['tip_amount']);
      const wrong = expectOk(await quote({ ...body, tip_amount: undefined }));
      expect(wrong.problems).toEqual([
        expect.objectContaining({ field: 'amount', computed_total: '0.30' }),
      ]);
      expect(wrong.pricing.total).toBe('0.30');
      const cart = expectOk(
        await quote({
          ...body,
          tip_amount: undefined,
          cart_items: [{ uuid: plain.items[0].uuid, quantity: 99 }],
        }),
      );
      expect(cart.pricing).toBeNull();
      expect(cart.problems[0].field).toBe('cart_items.0.quantity');
    });

    it('has an allowance of its own per IP and spends none of the order limit', async () => {
      const ip = '10.250.0.1';
      const body = orderBody(plain);
      for (let i = 0; i < t.config.rateLimitOrderPerMinute + 5; i++) {
        expectOk(await quote(body, ip));
      }
      // More quotes than the order limit: placement still has its allowance.
      await placeOrder(t, orderBody(plain, { amount: 0.3 }), guestHeaders(t, ip));
    });
  });
});
