import { OrderStreamHub } from '../src/order/realtime/order-stream.hub';
import { createTestDatabase } from './support/database';
import { serverOnly } from './support/server-only';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  guestHeaders,
  openOrderStream,
  openStream,
  orderBody,
  placeOrder,
  placeOrderRequest,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

// R37: the guest's view.
describe("the guest's view of an order", () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  async function placed(app = t, user = owner) {
    const shop = await newCatalog(app, user);
    return placeOrder(app, orderBody(shop));
  }

  const guestRead = (uuid: string, token?: string, app = t) => {
    const req = app.http.get(`${app.orders}/order/${uuid}`).set(guestHeaders(app));
    return token === undefined ? req : req.set('x-order-token', token);
  };

  const openGuestStream = (app: TestApp, uuid: string, token: string) =>
    openStream(app.baseUrl, `${app.orders}/order/${uuid}/stream`, {
      api_key: app.config.apiKeys[0],
      order_token: token,
    });

  async function orderState(uuid: string) {
    const [row] = await t.dataSource.query(
      `SELECT status, (SELECT count(*)::int FROM order_events WHERE order_uuid = $1::uuid) AS events,
              (SELECT count(*)::int FROM notifications WHERE data->>'order_uuid' = $1::text) AS notifications
       FROM orders WHERE uuid = $1::uuid`,
      [uuid],
    );
    return row;
  }

  it('answers an order_token on placement and the same one on a replay, storing it nowhere', async () => {
    const shop = await newCatalog(t, owner);
    const body = orderBody(shop);
    const headers = { ...guestHeaders(t), 'idempotency-key': `guest-${Date.now()}` };
    const first = expectOk(await placeOrderRequest(t, body, headers), 201);
    expect(typeof first.order_token).toBe('string');
    expect(first.order_token.length).toBeGreaterThanOrEqual(22);
    const replay = await placeOrderRequest(t, body, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(expectOk(replay, 201).order_token).toBe(first.order_token);
    const [{ count }] = await t.dataSource.query(
      `SELECT ((SELECT count(*) FROM idempotency_keys WHERE response_body::text LIKE $1)
             + (SELECT count(*) FROM orders WHERE row_to_json(orders)::text LIKE $1))::int AS count`,
      [`%${first.order_token}%`],
    );
    expect(count).toBe(0);
  });

  it('reads the order with the token, in the header or the query, without the owner note', async () => {
    const order = await placed();
    expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, {
        owner_note: 'regular, VIP',
        status: 'accepted',
      }),
    );
    const view = expectOk(await guestRead(order.uuid, order.order_token));
    expect(view.uuid).toBe(order.uuid);
    expect(view.status).toBe('accepted');
    expect(view.items).toEqual(order.items);
    expect(view).not.toHaveProperty('owner_note');
    expect(view).not.toHaveProperty('order_token');
    expect(JSON.stringify(view)).not.toContain('VIP');
    expect(view.history.map((e: { to: string }) => e.to)).toEqual(['pending', 'accepted']);
    const byQuery = await t.http
      .get(`${t.orders}/order/${order.uuid}`)
      .query({ order_token: order.order_token })
      .set(guestHeaders(t));
    expect(expectOk(byQuery).uuid).toBe(order.uuid);
  });

  it('answers 404 for a wrong or missing token, and for another order with this token', async () => {
    const mine = await placed();
    const other = await placed(t, await createUser(t));
    expectError(await guestRead(mine.uuid), 404, 'NOT_FOUND');
    expectError(await guestRead(mine.uuid, 'not-the-token'), 404, 'NOT_FOUND');
    expectError(await guestRead(mine.uuid, other.order_token), 404, 'NOT_FOUND');
    expectError(await guestRead(other.uuid, mine.order_token), 404, 'NOT_FOUND');
    expectError(
      await guestRead('00000000-0000-4000-8000-000000000000', mine.order_token),
      404,
      'NOT_FOUND',
    );
    expectError(await guestRead('not-a-uuid', mine.order_token), 404, 'NOT_FOUND');
    const wrongStream = await openGuestStream(t, other.uuid, mine.order_token);
    expect(wrongStream.status).toBe(404);
    const before = await orderState(other.uuid);
    expectError(
      await t.http
        .post(`${t.orders}/order/${other.uuid}/cancel`)
        .set({ ...guestHeaders(t), 'x-order-token': mine.order_token })
        .send({}),
      404,
      'NOT_FOUND',
    );
    expect(await orderState(other.uuid)).toEqual(before);
  });

  it('lets the guest cancel a pending order: history by the guest, the owner notified and streamed', async () => {
    const order = await placed();
    const ownerStream = await openOrderStream(t, owner.token);
    const guestStream = await openGuestStream(t, order.uuid, order.order_token);
    try {
      const res = await t.http
        .post(`${t.orders}/order/${order.uuid}/cancel`)
        .set({ ...guestHeaders(t), 'x-order-token': order.order_token })
        .send({ reason: 'Ordered the wrong size' });
      const cancelled = expectOk(res);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.history[cancelled.history.length - 1]).toMatchObject({
        field: 'status',
        from: 'pending',
        to: 'cancelled',
        by: null,
        actor: 'guest',
      });
      const streamed = await ownerStream.waitFor(
        (e) => e.event === 'order.updated' && e.data.uuid === order.uuid,
      );
      expect(streamed.data.status).toBe('cancelled');
      const own = await guestStream.waitFor((e) => e.event === 'order.updated');
      expect(own.data.status).toBe('cancelled');
      const notes = expectOk(
        await t.http.get(`${t.core}/notification/user/${owner.uuid}`).set(owner.headers),
      );
      expect(notes[0]).toMatchObject({ kind: 'order.cancelled' });
      expect(JSON.stringify(notes[0])).toContain('Ordered the wrong size');
    } finally {
      ownerStream.close();
      guestStream.close();
    }
  });

  it('refuses to cancel an accepted order with 422 and changes nothing', async () => {
    const order = await placed();
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
    const before = await orderState(order.uuid);
    const res = await t.http
      .post(`${t.orders}/order/${order.uuid}/cancel`)
      .query({ order_token: order.order_token })
      .set(guestHeaders(t))
      .send({});
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0]).toMatchObject({ current_status: 'accepted' });
    expect(await orderState(order.uuid)).toEqual(before);
  });

  it("streams only this order's updates to its guest", async () => {
    const order = await placed();
    const other = await placed();
    const stream = await openGuestStream(t, order.uuid, order.order_token);
    try {
      expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
      expectOk(await updateOrderRequest(t, owner.headers, other.uuid, { status: 'rejected' }));
      expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
      const event = await stream.waitFor((e) => e.event === 'order.updated');
      expect(event.data).toMatchObject({ uuid: order.uuid, status: 'accepted' });
      expect(stream.events.every((e) => e.data.uuid === order.uuid)).toBe(true);
      expect(event.data).not.toHaveProperty('owner_note');
    } finally {
      stream.close();
    }
  });

  it("sends heartbeats on the guest's stream while idle", async () => {
    const order = await placed();
    const hub = t.app.get(OrderStreamHub);
    hub.heartbeatMs = 100;
    const stream = await openGuestStream(t, order.uuid, order.order_token);
    try {
      await stream.waitForComment('heartbeat', 5_000);
    } finally {
      hub.heartbeatMs = 15_000;
      stream.close();
    }
  });

  serverOnly(
    "reaches the guest's stream on another instance of the service sharing the database",
    async () => {
      const db = await createTestDatabase();
      let first: TestApp | undefined;
      let second: TestApp | undefined;
      try {
        first = await startTestApp({}, { database: db });
        second = await startTestApp({}, { database: db });
        const user = await createUser(first);
        const order = await placed(first, user);
        const stream = await openGuestStream(second, order.uuid, order.order_token);
        try {
          expect(stream.status).toBe(200);
          expectOk(
            await updateOrderRequest(first, user.headers, order.uuid, { status: 'accepted' }),
          );
          const event = await stream.waitFor((e) => e.event === 'order.updated');
          expect(event.data).toMatchObject({ uuid: order.uuid, status: 'accepted' });
        } finally {
          stream.close();
        }
      } finally {
        await first?.close();
        await second?.close();
        await db.drop();
      }
    },
  );
});
