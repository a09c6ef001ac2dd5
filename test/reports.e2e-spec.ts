import { Catalog, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const ALL_DAY = [['00:00', '24:00']];
const WEEKLY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, ALL_DAY]),
);

// R62: reports.
/**
 * The sales and items reports of a business in Europe/London over the week
 * in which British Summer Time ends (Sunday 2026-10-25, 02:00 BST → 01:00
 * GMT), with every bucket computed by hand below.
 */
describe('reports: sales and items in the business’s own days', () => {
  let t: TestApp;
  let owner: TestUser;
  let manager: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let catalog: Catalog;
  let business: string;

  function salesPath(id = business): string {
    return `${t.core}/businesses/${id}/reports/sales`;
  }
  function itemsPath(id = business): string {
    return `${t.core}/businesses/${id}/reports/items`;
  }

  /** Money columns an order gets; set with SQL while placement does not fill them yet. */
  interface Pricing {
    items_subtotal: string;
    delivery_fee?: string;
    discount?: string;
    service_charge?: string;
    tax?: string;
    tip?: string;
    amount: string;
    amount_refunded?: string;
    payment_processor?: string;
    fulfilment_type?: string;
  }

  /**
   * Places an order through the API, moves it to `status` through the API,
   * then dates it (created_at) and prices it with SQL: the placement stamps
   * the current time, and the pricing columns (tax, tip, discount …) are
   * written by a placement change that is not there yet.
   */
  async function order(
    createdAt: string,
    status: 'pending' | 'accepted' | 'completed' | 'rejected' | 'cancelled',
    pricing: Pricing,
    cart?: Array<Record<string, unknown>>,
  ): Promise<string> {
    const body = orderBody(catalog, cart ? { cart_items: cart } : {});
    if (cart) {
      const placedTotal = await computedTotal(body);
      body.amount = placedTotal;
    }
    const placed = await placeOrder(t, body);
    const moves: Record<string, string[]> = {
      pending: [],
      accepted: ['accepted'],
      completed: ['accepted', 'ready', 'completed'],
      rejected: ['rejected'],
      cancelled: ['cancelled'],
    };
    for (const next of moves[status]) {
      expectOk(await updateOrderRequest(t, owner.headers, placed.uuid, { status: next }));
    }
    await t.dataSource.query(
      `UPDATE orders SET created_at = $2, items_subtotal = $3, delivery_fee = $4, discount = $5,
              service_charge = $6, tax = $7, tip = $8, amount = $9, amount_refunded = $10,
              payment_processor = COALESCE($11, payment_processor),
              fulfilment_type = COALESCE($12, fulfilment_type)
        WHERE uuid = $1`,
      [
        placed.uuid,
        createdAt,
        pricing.items_subtotal,
        pricing.delivery_fee ?? '0',
        pricing.discount ?? '0',
        pricing.service_charge ?? '0',
        pricing.tax ?? '0',
        pricing.tip ?? '0',
        pricing.amount,
        pricing.amount_refunded ?? '0',
        pricing.payment_processor ?? null,
        pricing.fulfilment_type ?? null,
      ],
    );
    return placed.uuid;
  }

  /** The total the server will compute for a cart (asked by sending a wrong one). */
  async function computedTotal(body: Record<string, unknown>): Promise<string> {
    const res = await t.http
      .post(`${t.orders}/order`)
      .set({ 'x-api-key': t.config.apiKeys[0], 'x-forwarded-for': '10.9.9.9' })
      .send({ ...body, amount: 999999 });
    return String(res.body.error.details[0].computed_total);
  }

  beforeAll(async () => {
    t = await startTestApp();
    [owner, manager, staff, outsider] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    catalog = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: { timezone: 'Europe/London', weekly: WEEKLY } } },
      items: [
        {
          title_name: 'Jollof',
          extra_data: {
            unit_price_amount: '10.00',
            option_groups: [
              {
                key: 'size',
                title: 'Size',
                min_selected: 0,
                max_selected: 1,
                options: [{ key: 'large', title: 'Large', price_delta: '1.50' }],
              },
            ],
          },
        },
      ],
    });
    catalog.items.push(
      await newItem(t, owner, catalog.menu, {
        title_name: 'Suya',
        extra_data: { unit_price_amount: '4.10' },
      }),
    );
    business = catalog.business.uuid;
    await newCatalog(t, outsider, { items: [{}] });
    await addMember(t, owner, business, manager, 'manager');
    await addMember(t, owner, business, staff, 'staff');

    const [jollof, suya] = catalog.items;
    const large = [{ group: 'size', option: 'large' }];
    // Thursday 22nd, 00:30 BST (still the 21st in UTC).
    await order(
      '2026-10-21T23:30:00Z',
      'completed',
      {
        items_subtotal: '11.50',
        delivery_fee: '1.00',
        discount: '0.10',
        service_charge: '0.20',
        tax: '0.80',
        tip: '0.10',
        amount: '13.50',
        fulfilment_type: 'delivery',
      },
      [{ uuid: jollof.uuid, quantity: 1, options: large }],
    );
    // Sunday 25th, 00:30 BST.
    await order('2026-10-24T23:30:00Z', 'accepted', {
      items_subtotal: '14.10',
      tip: '0.20',
      amount: '14.30',
      fulfilment_type: 'dine_in',
    });
    // Sunday 25th, 01:30 BST: the first of the two 01:30s.
    await order(
      '2026-10-25T00:30:00Z',
      'accepted',
      {
        items_subtotal: '8.20',
        amount: '8.20',
        amount_refunded: '2.05',
        payment_processor: 'paystack',
      },
      [{ uuid: suya.uuid, quantity: 2 }],
    );
    // Sunday 25th, 01:30 GMT: the second 01:30, an hour later.
    await order('2026-10-25T01:30:00Z', 'pending', { items_subtotal: '14.10', amount: '14.10' });
    // Sunday 25th, 23:30 GMT (the 25th in UTC too).
    await order('2026-10-25T23:30:00Z', 'rejected', { items_subtotal: '14.10', amount: '14.10' });
    // Wednesday 28th, 23:30 GMT: the last day.
    await order(
      '2026-10-28T23:30:00Z',
      'completed',
      { items_subtotal: '23.00', amount: '23.00', fulfilment_type: 'pickup' },
      [{ uuid: jollof.uuid, quantity: 2, options: large }],
    );
    // Outside the week: 23:59:59 BST on the 21st and 00:30 GMT on the 29th.
    await order('2026-10-21T22:59:59Z', 'completed', { items_subtotal: '99.00', amount: '99.00' });
    await order('2026-10-29T00:30:00Z', 'completed', { items_subtotal: '99.00', amount: '99.00' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const zero = {
    orders: 0,
    open_orders: 0,
    lost_orders: 0,
    items_subtotal: '0.00',
    discount: '0.00',
    service_charge: '0.00',
    tax: '0.00',
    tip: '0.00',
    delivery_fee: '0.00',
    total: '0.00',
    refunded: '0.00',
    net: '0.00',
    average_order: '0.00',
  };

  it('a week by day: seven local days, the Sunday of the clock change holding four orders', async () => {
    const data = expectOk(
      await t.http
        .get(salesPath())
        .query({ from: '2026-10-22', to: '2026-10-28', group_by: 'day' })
        .set(owner.headers),
    );
    expect(data.timezone).toBe('Europe/London');
    expect(data.group_by).toBe('day');
    expect(data.rows.map((r: any) => [r.label, r.start])).toEqual([
      ['2026-10-22', '2026-10-22T00:00:00+01:00'],
      ['2026-10-23', '2026-10-23T00:00:00+01:00'],
      ['2026-10-24', '2026-10-24T00:00:00+01:00'],
      ['2026-10-25', '2026-10-25T00:00:00+01:00'],
      ['2026-10-26', '2026-10-26T00:00:00+00:00'],
      ['2026-10-27', '2026-10-27T00:00:00+00:00'],
      ['2026-10-28', '2026-10-28T00:00:00+00:00'],
    ]);
    expect(data.rows[0]).toEqual({
      start: '2026-10-22T00:00:00+01:00',
      label: '2026-10-22',
      orders: 1,
      open_orders: 0,
      lost_orders: 0,
      items_subtotal: '11.50',
      discount: '0.10',
      service_charge: '0.20',
      tax: '0.80',
      tip: '0.10',
      delivery_fee: '1.00',
      total: '13.50',
      refunded: '0.00',
      net: '13.50',
      average_order: '13.50',
    });
    expect(data.rows[1]).toEqual({
      start: '2026-10-23T00:00:00+01:00',
      label: '2026-10-23',
      ...zero,
    });
    // Two sales (14.30 + 8.20), one pending, one rejected; 2.05 refunded of the second sale.
    expect(data.rows[3]).toMatchObject({
      orders: 2,
      open_orders: 1,
      lost_orders: 1,
      items_subtotal: '22.30',
      tip: '0.20',
      total: '22.50',
      refunded: '2.05',
      net: '20.45',
      average_order: '11.25',
    });
    expect(data.rows[6]).toMatchObject({ orders: 1, total: '23.00', net: '23.00' });
    expect(data.totals).toEqual({
      orders: 4,
      open_orders: 1,
      lost_orders: 1,
      items_subtotal: '56.80',
      discount: '0.10',
      service_charge: '0.20',
      tax: '0.80',
      tip: '0.30',
      delivery_fee: '1.00',
      total: '59.00',
      refunded: '2.05',
      net: '56.95',
      average_order: '14.75',
    });
    expect(data.by_payment_processor).toEqual({
      cash: { orders: 3, total: '50.80' },
      paystack: { orders: 1, total: '8.20' },
    });
    expect(data.by_fulfilment_type).toEqual({
      delivery: { orders: 1, total: '13.50' },
      dine_in: { orders: 1, total: '14.30' },
      pickup: { orders: 2, total: '31.20' },
    });
  });

  it('the Sunday by hour has 25 hours, 01:00 twice with its two offsets', async () => {
    const data = expectOk(
      await t.http
        .get(salesPath())
        .query({ from: '2026-10-25', to: '2026-10-25', group_by: 'hour' })
        .set(manager.headers),
    );
    expect(data.rows).toHaveLength(25);
    expect(data.rows.slice(0, 4).map((r: any) => [r.label, r.start])).toEqual([
      ['2026-10-25 00:00', '2026-10-25T00:00:00+01:00'],
      ['2026-10-25 01:00', '2026-10-25T01:00:00+01:00'],
      ['2026-10-25 01:00', '2026-10-25T01:00:00+00:00'],
      ['2026-10-25 02:00', '2026-10-25T02:00:00+00:00'],
    ]);
    expect(data.rows[24].start).toBe('2026-10-25T23:00:00+00:00');
    const counts = data.rows.map((r: any) => [r.orders, r.open_orders, r.lost_orders]);
    expect(counts[0]).toEqual([1, 0, 0]);
    expect(counts[1]).toEqual([1, 0, 0]);
    expect(counts[2]).toEqual([0, 1, 0]);
    expect(counts[24]).toEqual([0, 0, 1]);
    expect(counts.slice(3, 24).every((c: number[]) => c.join() === '0,0,0')).toBe(true);
  });

  it('by weekday: Monday first, Sunday holding the clock-change day', async () => {
    const data = expectOk(
      await t.http
        .get(salesPath())
        .query({ from: '2026-10-22', to: '2026-10-28', group_by: 'weekday' })
        .set(owner.headers),
    );
    expect(data.rows.map((r: any) => [r.label, r.start, r.orders])).toEqual([
      ['mon', null, 0],
      ['tue', null, 0],
      ['wed', null, 1],
      ['thu', null, 1],
      ['fri', null, 0],
      ['sat', null, 0],
      ['sun', null, 2],
    ]);
  });

  it('by month: the months of the period, the first starting on from', async () => {
    const data = expectOk(
      await t.http
        .get(salesPath())
        .query({ from: '2026-09-15', to: '2026-11-02', group_by: 'month' })
        .set(owner.headers),
    );
    expect(data.rows.map((r: any) => [r.label, r.start, r.orders, r.total])).toEqual([
      ['2026-09', '2026-09-15T00:00:00+01:00', 0, '0.00'],
      ['2026-10', '2026-10-01T00:00:00+01:00', 6, '257.00'],
      ['2026-11', '2026-11-01T00:00:00+00:00', 0, '0.00'],
    ]);
  });

  it('items by revenue, with the options chosen counted in units', async () => {
    const data = expectOk(
      await t.http
        .get(itemsPath())
        .query({ from: '2026-10-22', to: '2026-10-28' })
        .set(manager.headers),
    );
    const [jollof, suya] = catalog.items;
    // Sales only: the pending and rejected orders' lines are left out.
    expect(data.rows).toEqual([
      {
        item_uuid: jollof.uuid,
        title_name: 'Jollof',
        quantity: 4,
        revenue: '44.50',
        orders: 3,
        options: [{ group: 'size', option: 'large', option_title: 'Large', count: 3 }],
      },
      {
        item_uuid: suya.uuid,
        title_name: 'Suya',
        quantity: 3,
        revenue: '12.30',
        orders: 2,
        options: [],
      },
    ]);
    const one = expectOk(
      await t.http
        .get(itemsPath())
        .query({ from: '2026-10-22', to: '2026-10-28', limit: 1 })
        .set(owner.headers),
    );
    expect(one.rows.map((r: any) => r.title_name)).toEqual(['Jollof']);
  });

  it('a business without opening hours reports in UTC', async () => {
    const plain = await newCatalog(t, owner, { items: [{}] });
    const data = expectOk(
      await t.http
        .get(salesPath(plain.business.uuid))
        .query({ from: '2026-10-25', to: '2026-10-25' })
        .set(owner.headers),
    );
    expect(data.timezone).toBe('UTC');
    expect(data.rows).toEqual([
      { start: '2026-10-25T00:00:00+00:00', label: '2026-10-25', ...zero },
    ]);
  });

  describe('who may read them', () => {
    const week = { from: '2026-10-22', to: '2026-10-28' };

    it.each(['sales', 'items'])('%s: staff are refused with 403', async (kind) => {
      const res = await t.http
        .get(kind === 'sales' ? salesPath() : itemsPath())
        .query(week)
        .set(staff.headers);
      expectError(res, 403, 'FORBIDDEN');
    });

    it.each(['sales', 'items'])('%s: an outsider gets 404, as for no business', async (kind) => {
      const res = await t.http
        .get(kind === 'sales' ? salesPath() : itemsPath())
        .query(week)
        .set(outsider.headers);
      expectError(res, 404, 'NOT_FOUND');
      const unknown = await t.http
        .get(salesPath('00000000-0000-4000-8000-000000000000'))
        .query(week)
        .set(owner.headers);
      expectError(unknown, 404, 'NOT_FOUND');
    });

    it('needs a Bearer token', async () => {
      const res = await t.http
        .get(salesPath())
        .query(week)
        .set({ 'x-api-key': t.config.apiKeys[0] });
      expectError(res, 401, 'UNAUTHENTICATED');
    });
  });

  describe('the period', () => {
    async function refused(query: Record<string, unknown>, status: number, code: string) {
      const res = await t.http.get(salesPath()).query(query).set(owner.headers);
      expectError(res, status, code);
      return res.body.error.details as Array<{ field: string }>;
    }

    it('takes 366 days and refuses 367 with 422', async () => {
      const data = expectOk(
        await t.http
          .get(salesPath())
          .query({ from: '2024-01-01', to: '2024-12-31' })
          .set(owner.headers),
      );
      expect(data.rows).toHaveLength(366);
      const details = await refused({ from: '2025-01-01', to: '2026-01-02' }, 422, 'UNPROCESSABLE');
      expect(details.map((d) => d.field)).toEqual(['to']);
    });

    it.each([
      [{ from: '2026-02-30', to: '2026-03-01' }, 'from'],
      [{ from: '26-10-01', to: '2026-10-02' }, 'from'],
      [{ from: '2026-10-01', to: 'yesterday' }, 'to'],
      [{ from: '2026-10-01' }, 'to'],
      [{ from: '2026-10-01', to: '2026-10-02', group_by: 'year' }, 'group_by'],
    ])('refuses %j with 400 on %s', async (query, field) => {
      const details = await refused(query, 400, 'VALIDATION_FAILED');
      expect(details.map((d) => d.field)).toContain(field);
    });

    it('refuses a to before from with 400 on to', async () => {
      const details = await refused(
        { from: '2026-10-28', to: '2026-10-22' },
        400,
        'VALIDATION_FAILED',
      );
      expect(details.map((d) => d.field)).toEqual(['to']);
    });

    it('refuses a limit out of range', async () => {
      const res = await t.http
        .get(itemsPath())
        .query({ from: '2026-10-22', to: '2026-10-28', limit: 0 })
        .set(owner.headers);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field).toBe('limit');
    });
  });
});
