import { Clock } from '../src/common/clock';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const NOW = '2026-06-01T10:00:00Z';

// R55: ready time.
describe('ready times: set on acceptance, set by the team, seen by the guest', () => {
  let t: TestApp;
  let clock: Clock;
  let owner: TestUser;
  let manager: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let shop: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    clock = t.app.get(Clock);
    [owner, manager, staff, outsider] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    shop = await newCatalog(t, owner, {
      menu: {
        extra_data: {
          fulfilment: {
            modes: ['pickup'],
            prep_time_minutes: 20,
            scheduling: { enabled: true, slot_minutes: 30 },
          },
        },
      },
    });
    await addMember(t, owner, shop.business.uuid, manager, 'manager');
    await addMember(t, owner, shop.business.uuid, staff, 'staff');
  });
  beforeEach(() => clock.set(new Date(NOW)));
  afterAll(() => {
    clock?.reset();
    return t?.close();
  });

  const guestView = async (order: { uuid: string; order_token: string }) =>
    expectOk(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ 'x-api-key': t.config.apiKeys[0], 'x-order-token': order.order_token }),
    );

  it('sets acceptance + prep time for an order for now', async () => {
    const order = await placeOrder(t, orderBody(shop));
    const accepted = expectOk(
      await updateOrderRequest(t, staff.headers, order.uuid, { status: 'accepted' }),
    );
    // The clock runs on from NOW: the acceptance came a moment after it.
    const readyAt = Date.parse(accepted.estimated_ready_at);
    expect(readyAt - Date.parse('2026-06-01T10:20:00Z')).toBeGreaterThanOrEqual(0);
    expect(readyAt - Date.parse('2026-06-01T10:20:00Z')).toBeLessThan(10_000);
    expect(accepted.history.at(-1)).toMatchObject({ field: 'status', to: 'accepted' });
    expect(await guestView(order)).toMatchObject({
      estimated_ready_at: accepted.estimated_ready_at,
      fulfilment_type: 'pickup',
    });
  });

  it('sets the requested time for an order for later', async () => {
    const order = await placeOrder(
      t,
      orderBody(shop, { requested_time: '2026-06-01T15:30:00+01:00' }),
    );
    const accepted = expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }),
    );
    expect(accepted).toMatchObject({
      requested_time: '2026-06-01T14:30:00.000Z',
      estimated_ready_at: '2026-06-01T14:30:00.000Z',
    });
  });

  it('keeps a ready time sent with the acceptance, and lets manager and staff change it', async () => {
    const order = await placeOrder(t, orderBody(shop));
    const accepted = expectOk(
      await updateOrderRequest(t, manager.headers, order.uuid, {
        status: 'accepted',
        estimated_ready_at: '2026-06-01T11:45:00+01:00',
      }),
    );
    expect(accepted.estimated_ready_at).toBe('2026-06-01T10:45:00.000Z');
    const later = expectOk(
      await updateOrderRequest(t, staff.headers, order.uuid, {
        estimated_ready_at: '2026-06-01T11:00:00Z',
      }),
    );
    expect(later.estimated_ready_at).toBe('2026-06-01T11:00:00.000Z');
    expect(later.history.at(-1)).toMatchObject({
      field: 'estimated_ready_at',
      from: '2026-06-01T10:45:00.000Z',
      to: '2026-06-01T11:00:00.000Z',
      actor: 'staff',
    });
    expect((await guestView(order)).estimated_ready_at).toBe('2026-06-01T11:00:00.000Z');
  });

  it('refuses a ready time from someone outside the business, changing nothing', async () => {
    const order = await placeOrder(t, orderBody(shop));
    const res = await updateOrderRequest(t, outsider.headers, order.uuid, {
      estimated_ready_at: '2026-06-01T11:00:00Z',
    });
    expect(res.status).toBe(403);
    const [row] = await t.dataSource.query(
      'SELECT estimated_ready_at FROM orders WHERE uuid = $1',
      [order.uuid],
    );
    expect(row.estimated_ready_at).toBeNull();
  });

  it('refuses a ready time without an offset with 400, changing nothing', async () => {
    const order = await placeOrder(t, orderBody(shop));
    const res = await updateOrderRequest(t, owner.headers, order.uuid, {
      estimated_ready_at: '2026-06-01 11:00',
    });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('estimated_ready_at');
    const [row] = await t.dataSource.query(
      'SELECT estimated_ready_at FROM orders WHERE uuid = $1',
      [order.uuid],
    );
    expect(row.estimated_ready_at).toBeNull();
  });

  // R75: a ready time within a week.
  it('takes a ready time up to 7 days either side of now, and refuses one beyond with 422, changing nothing', async () => {
    const order = await placeOrder(t, orderBody(shop));
    const stored = async () =>
      (
        await t.dataSource.query('SELECT estimated_ready_at FROM orders WHERE uuid = $1', [
          order.uuid,
        ])
      )[0].estimated_ready_at;
    for (const sent of [
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59Z',
      // The clock keeps running from NOW: a minute past each bound.
      '2026-06-08T10:01:00Z',
      '2026-05-25T09:59:00Z',
    ]) {
      const res = await updateOrderRequest(t, owner.headers, order.uuid, {
        estimated_ready_at: sent,
      });
      expectError(res, 422, 'UNPROCESSABLE');
      const [detail] = res.body.error.details;
      expect(detail.field).toBe('estimated_ready_at');
      expect(detail.earliest).toMatch(/^2026-05-25T10:00:/);
      expect(detail.latest).toMatch(/^2026-06-08T10:00:/);
      expect(await stored()).toBeNull();
    }
    const badDate = await updateOrderRequest(t, owner.headers, order.uuid, {
      estimated_ready_at: '2026-13-01T10:00:00Z',
    });
    expectError(badDate, 400, 'VALIDATION_FAILED');
    expect(badDate.body.error.details[0].field).toBe('estimated_ready_at');
    expect(await stored()).toBeNull();

    for (const sent of ['2026-06-08T09:59:00Z', '2026-05-25T10:01:00Z']) {
      const set = expectOk(
        await updateOrderRequest(t, staff.headers, order.uuid, { estimated_ready_at: sent }),
      );
      expect(set.estimated_ready_at).toBe(new Date(sent).toISOString());
    }
  });
});
