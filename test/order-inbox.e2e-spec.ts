import { newCatalog, newMenu, newItem, Catalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

// R24: the owner's inbox.
describe('the owner inbox: orders, notifications, device settings', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let shop: Catalog;
  let cafe: Catalog;
  let cafeDrinks: Catalog;
  /** The owner's orders as placed, oldest first. */
  const placed: any[] = [];
  let othersOrder: any;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    other = await createUser(t);
    shop = await newCatalog(t, owner);
    cafe = await newCatalog(t, owner);
    const drinksMenu = await newMenu(t, owner, cafe.business);
    cafeDrinks = {
      business: cafe.business,
      menu: drinksMenu,
      items: [await newItem(t, owner, drinksMenu, { extra_data: { unit_price_amount: '2.50' } })],
    };
    for (const catalog of [shop, cafe, shop, cafeDrinks, cafe]) {
      placed.push(await placeOrder(t, orderBody(catalog)));
    }
    othersOrder = await placeOrder(t, orderBody(await newCatalog(t, other)));
    expectOk(await updateOrderRequest(t, owner.headers, placed[1].uuid, { status: 'accepted' }));
  });
  afterAll(() => t?.close());

  function listOrders(query: Record<string, unknown> = {}, user: TestUser = owner) {
    return t.http.get(`${t.core}/orders`).set(user.headers).query(query);
  }

  describe('GET /orders', () => {
    it('lists the caller’s orders across their businesses, newest first, with paging', async () => {
      const res = await listOrders();
      const orders = expectOk(res);
      expect(orders.map((o: { uuid: string }) => o.uuid)).toEqual(
        [...placed].reverse().map((o) => o.uuid),
      );
      expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 5, last_page: 1 });
      expect(orders[0]).toMatchObject({
        order_reference: placed[4].order_reference,
        items: [expect.objectContaining({ quantity: 1 })],
        history: [expect.objectContaining({ field: 'status', to: 'pending' })],
      });
      expect(orders.some((o: { uuid: string }) => o.uuid === othersOrder.uuid)).toBe(false);
    });

    it('pages stably', async () => {
      const first = await listOrders({ per_page: 2, page: 1 });
      const second = await listOrders({ per_page: 2, page: 2 });
      const third = await listOrders({ per_page: '2', page: '3' });
      expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 5, last_page: 3 });
      const seen = [first, second, third].flatMap((res) =>
        expectOk(res).map((o: { uuid: string }) => o.uuid),
      );
      expect(seen).toEqual([...placed].reverse().map((o) => o.uuid));
    });

    it('cuts a huge per_page to 1000 instead of refusing it', async () => {
      const res = await listOrders({ per_page: 20000000 });
      expect(res.body.meta.per_page).toBe(1000);
      expect(expectOk(res)).toHaveLength(5);
    });

    it('filters by status, business, menu and time', async () => {
      const uuids = async (query: Record<string, unknown>) =>
        expectOk(await listOrders(query)).map((o: { uuid: string }) => o.uuid);
      expect(await uuids({ status: 'accepted' })).toEqual([placed[1].uuid]);
      expect(await uuids({ status: 'pending', business_uuid: shop.business.uuid })).toEqual([
        placed[2].uuid,
        placed[0].uuid,
      ]);
      expect(await uuids({ business_uuid: cafe.business.uuid })).toEqual([
        placed[4].uuid,
        placed[3].uuid,
        placed[1].uuid,
      ]);
      expect(await uuids({ menu_uuid: cafeDrinks.menu.uuid })).toEqual([placed[3].uuid]);
      expect(await uuids({ from: placed[3].created_at })).toEqual([placed[4].uuid, placed[3].uuid]);
      expect(await uuids({ to: placed[1].created_at })).toEqual([placed[1].uuid, placed[0].uuid]);
      expect(await uuids({ from: placed[1].created_at, to: placed[2].created_at })).toEqual([
        placed[2].uuid,
        placed[1].uuid,
      ]);
      // Another owner's business filters to nothing rather than showing its orders.
      expect(await uuids({ business_uuid: othersOrder.business_uuid })).toEqual([]);
    });

    it('refuses bad filters with 400', async () => {
      for (const query of [
        { status: 'shipped' },
        { business_uuid: 'shop' },
        { menu_uuid: '123' },
        { from: 'yesterday' },
        { page: 0 },
        { per_page: 'many' },
      ]) {
        const res = await listOrders(query);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details[0].field).toBe(Object.keys(query)[0]);
      }
    });

    it('needs a Bearer token', async () => {
      expectError(await t.http.get(`${t.core}/orders`).set(apiHeaders(t)), 401, 'UNAUTHENTICATED');
    });
  });

  describe('GET /orders/{uuid}', () => {
    it('answers one order with its lines and history', async () => {
      const order = expectOk(
        await t.http.get(`${t.core}/orders/${placed[1].uuid}`).set(owner.headers),
      );
      expect(order).toMatchObject({
        uuid: placed[1].uuid,
        status: 'accepted',
        items: placed[1].items,
        history: [
          expect.objectContaining({ field: 'status', from: null, to: 'pending', by: null }),
          expect.objectContaining({
            field: 'status',
            from: 'pending',
            to: 'accepted',
            by: owner.uuid,
          }),
        ],
      });
    });

    it('refuses another owner’s order with 403 and answers 404 for unknown ids', async () => {
      expectError(
        await t.http.get(`${t.core}/orders/${othersOrder.uuid}`).set(owner.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http.get(`${t.core}/orders/${placed[0].uuid}`).set(other.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .get(`${t.core}/orders/00000000-0000-4000-8000-000000000000`)
          .set(owner.headers),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.http.get(`${t.core}/orders/not-an-id`).set(owner.headers),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('notifications', () => {
    const path = (user: TestUser, suffix = '') =>
      `${t.core}/notification/user/${user.uuid}${suffix}`;

    it('lists one notification per new order, newest first, with meta.unread', async () => {
      const res = await t.http.get(path(owner)).set(owner.headers);
      const notifications = expectOk(res);
      expect(notifications.map((n: { data: { order_uuid: string } }) => n.data.order_uuid)).toEqual(
        [...placed].reverse().map((o) => o.uuid),
      );
      expect(notifications[0]).toMatchObject({
        kind: 'order.created',
        title: `New order ${placed[4].order_reference}`,
        read_at: null,
        data: {
          order_uuid: placed[4].uuid,
          order_reference: placed[4].order_reference,
          business_uuid: cafe.business.uuid,
          amount: placed[4].amount,
        },
      });
      expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 5, last_page: 1, unread: 5 });
    });

    it('refuses another user’s notifications with 403', async () => {
      expectError(await t.http.get(path(owner)).set(other.headers), 403, 'FORBIDDEN');
      const before = await unreadOf(owner);
      expectError(
        await t.http.post(path(owner, '/read')).set(other.headers).send({}),
        403,
        'FORBIDDEN',
      );
      expect(await unreadOf(owner)).toBe(before);
    });

    it('ignores another user’s notification uuids sent on the caller’s own path', async () => {
      const [mine] = expectOk(await t.http.get(path(owner)).set(owner.headers));
      const res = await t.http
        .post(path(other, '/read'))
        .set(other.headers)
        .send({ uuids: [mine.uuid] });
      expect(expectOk(res)).toEqual({ marked: 0, unread: 1 });
      expect(await unreadOf(owner)).toBe(5);
    });

    it('marks the named ones read, then all of them', async () => {
      const list = expectOk(await t.http.get(path(owner)).set(owner.headers));
      const marked = await t.http
        .post(path(owner, '/read'))
        .set(owner.headers)
        .send({ uuids: [list[0].uuid, list[1].uuid] });
      expect(expectOk(marked)).toEqual({ marked: 2, unread: 3 });
      const unread = await t.http.get(path(owner)).set(owner.headers).query({ unread: 'true' });
      expect(expectOk(unread)).toHaveLength(3);
      expect(unread.body.meta).toMatchObject({ total: 3, unread: 3 });
      const after = expectOk(await t.http.get(path(owner)).set(owner.headers));
      expect(after[0].read_at).not.toBeNull();
      expect(after[2].read_at).toBeNull();

      expect(expectOk(await t.http.post(path(owner, '/read')).set(owner.headers).send({}))).toEqual(
        {
          marked: 3,
          unread: 0,
        },
      );
      expect(expectOk(await t.http.post(path(owner, '/read')).set(owner.headers).send({}))).toEqual(
        {
          marked: 0,
          unread: 0,
        },
      );
    });

    it('refuses malformed uuids with 400', async () => {
      const res = await t.http
        .post(path(owner, '/read'))
        .set(owner.headers)
        .send({ uuids: ['x'] });
      expectError(res, 400, 'VALIDATION_FAILED');
    });

    async function unreadOf(user: TestUser): Promise<number> {
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM notifications WHERE user_uuid = $1 AND read_at IS NULL',
        [user.uuid],
      );
      return row.n;
    }
  });

  describe('notification settings', () => {
    const path = (user: TestUser) => `${t.core}/notification-setting/user/${user.uuid}`;
    const settingsOf = async (user: TestUser) =>
      t.dataSource.query('SELECT device_id FROM notification_settings WHERE user_uuid = $1', [
        user.uuid,
      ]);

    it('stores a device’s settings and updates them by device_id', async () => {
      const created = await t.http
        .post(path(owner))
        .set(owner.headers)
        .send({
          device_id: 'phone-1',
          platform: 'android',
          label: 'Kitchen phone',
          enable_notification: true,
          providers: { fcm: { token: 'abc' } },
          user_uuid: other.uuid,
        });
      expect(expectOk(created, 201)).toMatchObject({
        device_id: 'phone-1',
        platform: 'android',
        label: 'Kitchen phone',
        enable_notification: true,
        providers: { fcm: { token: 'abc' } },
      });
      const updated = await t.http
        .post(path(owner))
        .set(owner.headers)
        .send({ device_id: 'phone-1', enable_notification: false, providers: ['fcm'] });
      expect(expectOk(updated, 200)).toMatchObject({
        uuid: created.body.data.uuid,
        platform: 'android',
        enable_notification: false,
        providers: ['fcm'],
      });
      expectOk(
        await t.http.post(path(owner)).set(owner.headers).send({ device_id: 'tablet' }),
        201,
      );

      const list = expectOk(await t.http.get(path(owner)).set(owner.headers));
      expect(list.map((s: { device_id: string }) => s.device_id)).toEqual(['tablet', 'phone-1']);
      expect(await settingsOf(other)).toEqual([]);
    });

    it('keeps each user’s devices apart and refuses another user’s path with 403', async () => {
      expectOk(
        await t.http.post(path(other)).set(other.headers).send({ device_id: 'phone-1' }),
        201,
      );
      expectError(await t.http.get(path(owner)).set(other.headers), 403, 'FORBIDDEN');
      const before = await settingsOf(owner);
      expectError(
        await t.http.post(path(owner)).set(other.headers).send({ device_id: 'intruder' }),
        403,
        'FORBIDDEN',
      );
      expect(await settingsOf(owner)).toEqual(before);
      const mine = expectOk(await t.http.get(path(owner)).set(owner.headers));
      expect(mine.find((s: { device_id: string }) => s.device_id === 'phone-1').platform).toBe(
        'android',
      );
    });

    it('refuses bad settings with 400', async () => {
      const before = await settingsOf(owner);
      for (const body of [
        {},
        { device_id: '' },
        { device_id: 'd'.repeat(256) },
        { device_id: 'x', enable_notification: 'yes' },
        { device_id: 'x', providers: 'fcm' },
        { device_id: 'x', providers: { blob: 'x'.repeat(17 * 1024) } },
      ]) {
        expectError(
          await t.http.post(path(owner)).set(owner.headers).send(body),
          400,
          'VALIDATION_FAILED',
        );
      }
      expect(await settingsOf(owner)).toEqual(before);
    });
  });
});
