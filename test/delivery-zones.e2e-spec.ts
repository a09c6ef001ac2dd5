import { entityPath, newBusiness, newMenu } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';
import {
  AJAH,
  at,
  deliveryQuote,
  destination,
  IKORODU,
  LAGOS_ZONES,
  LEKKI,
  OSU,
  ringAround,
  WESTLANDS,
} from './support/zones';

const FULFILMENT = {
  modes: ['pickup', 'delivery'],
  delivery: { minimum_order_amount: '8000.00', zones: LAGOS_ZONES },
};

// R78: delivery zones.
// R80: delivery quote.
describe('delivery zones on a menu, and the delivery quote', () => {
  let t: TestApp;
  let owner: TestUser;
  let business: { uuid: string; meta_key: string | null };
  let menu: { uuid: string; meta_key: string | null };

  const menuBody = (fulfilment: unknown) => ({
    meta_key: `menu-${Math.random().toString(36).slice(2)}`,
    title_name: 'Zoned',
    status: 'enabled',
    parent_entity_type: `${t.config.namespace}_business`,
    parent_entity_uuid: business.uuid,
    extra_data: { menu_base_wallet_ticker: 'NGN', fulfilment },
  });
  const count = async () =>
    (await t.dataSource.query('SELECT count(*)::int AS count FROM entities'))[0].count;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    business = await newBusiness(t, owner);
    menu = await newMenu(t, owner, business, { extra_data: { fulfilment: FULFILMENT } });
  });
  afterAll(() => t?.close());

  describe('written on the menu', () => {
    it('are stored as written and the storefront carries them as written', async () => {
      expect(menu).toMatchObject({ extra_data: { fulfilment: FULFILMENT } });
      const res = await t.http
        .get(`${t.core}/storefront/${business.meta_key}/menu/${menu.meta_key}`)
        .set(apiHeaders(t));
      expect(expectOk(res).menu.extra_data.fulfilment).toEqual(FULFILMENT);
    });

    it('take 50 zones of 500 points, though they pass the 64 KiB of the rest of extra_data', async () => {
      const zones = Array.from({ length: 50 }, (_, i) => ({
        key: `zone-${i}`,
        title: `Zone ${i}`,
        kind: 'polygon',
        polygon: ringAround(destination(LEKKI, i * 3, 90), 500, 1.2),
        fee: '1000.00',
      }));
      const body = menuBody({ modes: ['delivery'], delivery: { zones } });
      expect(Buffer.byteLength(JSON.stringify(body.extra_data))).toBeGreaterThan(64 * 1024);
      const created = expectOk(
        await t.http.post(entityPath(t, 'business_menu')).set(owner.headers).send(body),
        201,
      );
      expect(created.extra_data.fulfilment.delivery.zones).toEqual(zones);
      // The rest of extra_data keeps its limit.
      const big = {
        ...body,
        meta_key: 'too-big',
        extra_data: { ...body.extra_data, note: 'x'.repeat(65 * 1024) },
      };
      const res = await t.http.post(entityPath(t, 'business_menu')).set(owner.headers).send(big);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field).toBe('extra_data');
    });

    const bowTie = [
      [5.62, -0.03],
      [5.7, 0.04],
      [5.62, 0.04],
      [5.7, -0.03],
    ];
    it.each<[string, unknown, string]>([
      [
        'a polygon that crosses itself',
        [{ ...LAGOS_ZONES[2], polygon: bowTie }],
        'zones[0].polygon',
      ],
      ['a repeated key', [LAGOS_ZONES[0], { ...LAGOS_ZONES[3], key: 'lekki' }], 'zones[1].key'],
      ['a radius of 150 km', [{ ...LAGOS_ZONES[0], radius_km: 150 }], 'zones[0].radius_km'],
      [
        'a latitude of 91',
        [{ ...LAGOS_ZONES[0], center: { lat: 91, lng: 3 } }],
        'zones[0].center.lat',
      ],
      [
        'a polygon of 501 points',
        [{ ...LAGOS_ZONES[2], polygon: ringAround(LEKKI, 501, 2) }],
        'zones[0].polygon',
      ],
      [
        '201 areas',
        [{ ...LAGOS_ZONES[3], areas: Array.from({ length: 201 }, (_, i) => `A${i}`) }],
        'zones[0].areas',
      ],
      ['a fee below zero', [{ ...LAGOS_ZONES[3], fee: '-500' }], 'zones[0].fee'],
      [
        '51 zones',
        Array.from({ length: 51 }, (_, i) => ({ ...LAGOS_ZONES[3], key: `a${i}` })),
        'zones',
      ],
    ])('refuse %s with 400 naming the path, storing nothing', async (_, zones, path) => {
      const field = `extra_data.fulfilment.delivery.${path}`;
      const before = await count();
      const res = await t.http
        .post(entityPath(t, 'business_menu'))
        .set(owner.headers)
        .send(menuBody({ modes: ['delivery'], delivery: { zones } }));
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await count()).toBe(before);
      // An update is refused alike and leaves the menu as it was.
      const update = await t.http
        .put(entityPath(t, 'business_menu', menu.uuid))
        .set(owner.headers)
        .send({ extra_data: { fulfilment: { modes: ['delivery'], delivery: { zones } } } });
      expectError(update, 400, 'VALIDATION_FAILED');
      const [row] = await t.dataSource.query('SELECT extra_data FROM entities WHERE uuid = $1', [
        menu.uuid,
      ]);
      expect(row.extra_data.fulfilment).toEqual(FULFILMENT);
    });
  });

  describe('quoted before ordering', () => {
    const quote = (body: Record<string, unknown>) =>
      deliveryQuote(t, { menu_uuid: menu.uuid, ...body });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      [
        'Lekki’s centre, nothing in the cart yet',
        at(LEKKI),
        {
          zone: { key: 'lekki', title: 'Lekki Phase 1' },
          fee: '1500.00',
          minimum_order_amount: '5000.00',
          free_above: '20000.00',
          eta_minutes: 45,
          shortfall: '5000.00',
        },
      ],
      [
        'on Lekki’s circle, with 12000.00 of items',
        { ...at(destination(LEKKI, 3, 180)), items_subtotal: '12000.00' },
        { zone: { key: 'lekki' }, fee: '1500.00', shortfall: '0.00' },
      ],
      [
        'Lekki at exactly free_above',
        { ...at(LEKKI), items_subtotal: 20000 },
        { zone: { key: 'lekki' }, fee: '0.00' },
      ],
      [
        'Ajah: the polygon, with the delivery mode’s minimum',
        { ...at(AJAH), items_subtotal: '7000.00' },
        {
          zone: { key: 'ajah', title: 'Lekki to Ajah' },
          fee: '3000.00',
          minimum_order_amount: '8000.00',
          free_above: '20000.00',
          eta_minutes: 70,
          shortfall: '1000.00',
        },
      ],
      [
        'on Victoria Island’s edge',
        { latitude: 6.435, longitude: 3.415 },
        { zone: { key: 'vi' }, fee: '2000.00', free_above: null, eta_minutes: null },
      ],
      ['Obalende by name', { area: ' obalende ' }, { zone: { key: 'ikoyi', title: 'Ikoyi' } }],
      ['Osu, Accra', at(destination(OSU, 1, 45)), { zone: { key: 'osu' }, fee: '30.00' }],
      ['Westlands, Nairobi', at(WESTLANDS), { zone: { key: 'westlands' }, fee: '250.00' }],
    ])('%s', async (_, body, expected) => {
      expect(expectOk(await quote(body))).toMatchObject(expected);
    });

    it('refuses a place outside every zone with 422, naming the nearest zone', async () => {
      const res = await quote(at(IKORODU));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details).toEqual([
        {
          field: 'latitude',
          message: expect.stringMatching(
            /^outside the delivery area; the nearest zone is Lekki to Ajah, /,
          ),
          nearest_zone: { key: 'ajah', title: 'Lekki to Ajah' },
          distance_km: expect.stringMatching(/^15\.\d\d$/),
        },
      ]);
    });

    it('names no zone for an unknown area', async () => {
      const res = await quote({ area: 'Ikorodu' });
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0]).toMatchObject({ field: 'area', nearest_zone: null });
      expect(res.body.error.details[0].message).toMatch(/^outside the delivery area/);
    });

    it('answers the zones as they are now, right after the owner changes them', async () => {
      const zoned = await newMenu(t, owner, business, { extra_data: { fulfilment: FULFILMENT } });
      expect(expectOk(await deliveryQuote(t, { menu_uuid: zoned.uuid, ...at(LEKKI) })).fee).toBe(
        '1500.00',
      );
      const moved = [{ ...LAGOS_ZONES[0], fee: '1750.00' }, ...LAGOS_ZONES.slice(1)];
      expectOk(
        await t.http
          .put(entityPath(t, 'business_menu', zoned.uuid))
          .set(owner.headers)
          .send({ extra_data: { fulfilment: { ...FULFILMENT, delivery: { zones: moved } } } }),
      );
      expect(expectOk(await deliveryQuote(t, { menu_uuid: zoned.uuid, ...at(LEKKI) })).fee).toBe(
        '1750.00',
      );
      // Without zones again: the menu prices delivery without them.
      expectOk(
        await t.http
          .put(entityPath(t, 'business_menu', zoned.uuid))
          .set(owner.headers)
          .send({ extra_data: { fulfilment: { modes: ['delivery'] } } }),
      );
      const res = await deliveryQuote(t, { menu_uuid: zoned.uuid, ...at(LEKKI) });
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('menu_uuid');
    });

    it('refuses a menu that does not deliver, and an unknown menu', async () => {
      const pickup = await newMenu(t, owner, business, {
        extra_data: { fulfilment: { modes: ['pickup'], delivery: { zones: LAGOS_ZONES } } },
      });
      const res = await deliveryQuote(t, { menu_uuid: pickup.uuid, ...at(LEKKI) });
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('menu_uuid');
      expectError(
        await deliveryQuote(t, { menu_uuid: '00000000-0000-4000-8000-000000000000', ...at(LEKKI) }),
        404,
        'NOT_FOUND',
      );
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no place', {}, 'latitude'],
      ['a latitude without its longitude', { latitude: 6.4 }, 'longitude'],
      ['a latitude of 91', { latitude: 91, longitude: 3 }, 'latitude'],
      ['a longitude as text', { latitude: 6.4, longitude: '3.4' }, 'longitude'],
      ['a subtotal below zero', { area: 'Ikoyi', items_subtotal: '-1' }, 'items_subtotal'],
    ])('refuses %s with 400', async (_, body, field) => {
      const res = await quote(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('needs the API key', async () => {
      const res = await t.http
        .post(`${t.orders}/delivery/quote`)
        .send({ menu_uuid: menu.uuid, ...at(LEKKI) });
      expect(res.status).toBe(401);
    });
  });
});

// R71: a delivery quote is a quote: its allowance per IP is the quotes'.
describe('delivery quotes from one address', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_QUOTE_PER_MINUTE: '2' });
  });
  afterAll(() => t?.close());

  it('are refused with 429 past the quotes’ allowance per minute, others not', async () => {
    const owner = await createUser(t);
    const business = await newBusiness(t, owner);
    const zoned = await newMenu(t, owner, business, { extra_data: { fulfilment: FULFILMENT } });
    const from = (ip: string) =>
      t.http
        .post(`${t.orders}/delivery/quote`)
        .set({ 'x-api-key': t.config.apiKeys[0], 'x-forwarded-for': ip })
        .send({ menu_uuid: zoned.uuid, ...at(LEKKI) });
    expectOk(await from('10.9.9.1'));
    expectOk(await from('10.9.9.1'));
    const third = await from('10.9.9.1');
    expectError(third, 429, 'RATE_LIMITED');
    expect(third.headers['retry-after']).toBeDefined();
    expectOk(await from('10.9.9.2'));
  });
});
