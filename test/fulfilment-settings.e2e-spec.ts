import { entityPath, newBusiness, newMenu } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

const WHOLE = {
  modes: ['dine_in', 'pickup', 'delivery'],
  prep_time_minutes: 20,
  delivery: { minimum_order_amount: '15.00' },
  pickup: { minimum_order_amount: '0' },
  scheduling: { enabled: true, slot_minutes: 15, max_days_ahead: 7, max_orders_per_slot: 10 },
};

describe("a menu's fulfilment settings", () => {
  let t: TestApp;
  let owner: TestUser;
  let business: { uuid: string; meta_key: string | null };

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    business = await newBusiness(t, owner);
  });
  afterAll(() => t?.close());

  it('stores the settings as written and the storefront carries them', async () => {
    const menu = await newMenu(t, owner, business, { extra_data: { fulfilment: WHOLE } });
    expect(menu.extra_data.fulfilment).toEqual(WHOLE);
    const res = await t.http
      .get(`${t.core}/storefront/${business.meta_key}/menu/${menu.meta_key}`)
      .set(apiHeaders(t));
    expect(expectOk(res).menu.extra_data.fulfilment).toEqual(WHOLE);
  });

  it('takes modes alone as a whole setting', async () => {
    const menu = await newMenu(t, owner, business, {
      extra_data: { fulfilment: { modes: ['pickup'] } },
    });
    expect(menu.extra_data.fulfilment).toEqual({ modes: ['pickup'] });
  });

  const clone = () => JSON.parse(JSON.stringify(WHOLE));
  it.each<[string, (f: any) => unknown, string]>([
    ['not an object', () => 'pickup', 'extra_data.fulfilment'],
    ['no modes', (f) => void delete f.modes, 'extra_data.fulfilment.modes'],
    ['empty modes', (f) => void (f.modes = []), 'extra_data.fulfilment.modes'],
    ['an unknown mode', (f) => void (f.modes = ['drone']), 'extra_data.fulfilment.modes'],
    [
      'a repeated mode',
      (f) => void (f.modes = ['pickup', 'pickup']),
      'extra_data.fulfilment.modes',
    ],
    [
      'a prep time above a day',
      (f) => void (f.prep_time_minutes = 1441),
      'extra_data.fulfilment.prep_time_minutes',
    ],
    [
      'a negative prep time',
      (f) => void (f.prep_time_minutes = -1),
      'extra_data.fulfilment.prep_time_minutes',
    ],
    [
      'a negative minimum',
      (f) => void (f.delivery.minimum_order_amount = '-1'),
      'extra_data.fulfilment.delivery.minimum_order_amount',
    ],
    [
      'a minimum that is not an amount',
      (f) => void (f.pickup.minimum_order_amount = 'ten'),
      'extra_data.fulfilment.pickup.minimum_order_amount',
    ],
    [
      'a slot length not offered',
      (f) => void (f.scheduling.slot_minutes = 7),
      'extra_data.fulfilment.scheduling.slot_minutes',
    ],
    [
      'a window beyond 60 days',
      (f) => void (f.scheduling.max_days_ahead = 61),
      'extra_data.fulfilment.scheduling.max_days_ahead',
    ],
    [
      'a slot cap of 0',
      (f) => void (f.scheduling.max_orders_per_slot = 0),
      'extra_data.fulfilment.scheduling.max_orders_per_slot',
    ],
    [
      'a slot cap above 10000',
      (f) => void (f.scheduling.max_orders_per_slot = 10001),
      'extra_data.fulfilment.scheduling.max_orders_per_slot',
    ],
    [
      'an enabled flag that is not a boolean',
      (f) => void (f.scheduling.enabled = 'soon'),
      'extra_data.fulfilment.scheduling.enabled',
    ],
  ])('refuses %s with 400 naming the path, storing nothing', async (_, change, field) => {
    const f = clone();
    const fulfilment = change(f) ?? f;
    const count = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS count FROM entities'))[0].count;
    const before = await count();
    const res = await t.http
      .post(entityPath(t, 'business_menu'))
      .set(owner.headers)
      .send({
        meta_key: `menu-${Math.random().toString(36).slice(2)}`,
        title_name: 'Broken',
        status: 'enabled',
        parent_entity_type: `${t.config.namespace}_business`,
        parent_entity_uuid: business.uuid,
        extra_data: { fulfilment },
      });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    expect(await count()).toBe(before);
  });
});
