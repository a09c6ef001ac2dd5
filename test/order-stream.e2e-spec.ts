import { newCatalog, Catalog } from './support/entity';
import { createTestDatabase } from './support/database';
import { serverOnly } from './support/server-only';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  openOrderStream,
  openStream,
  orderBody,
  placeOrder,
  placeOrderRequest,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { OrderStreamHub } from '../src/order/realtime/order-stream.hub';

describe('the owner’s live order stream (SSE)', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let catalog: Catalog;
  let othersCatalog: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    other = await createUser(t);
    catalog = await newCatalog(t, owner);
    othersCatalog = await newCatalog(t, other);
  });
  afterAll(() => t?.close());

  it('sends order.created and order.updated for the caller’s orders, with credentials in the query', async () => {
    const stream = await openOrderStream(t, owner.token);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toContain('no-cache');

      const order = await placeOrder(t, orderBody(catalog));
      const created = await stream.waitFor(
        (e) => e.event === 'order.created' && e.data.uuid === order.uuid,
      );
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.data).toEqual({
        uuid: order.uuid,
        order_reference: order.order_reference,
        status: 'pending',
        payment_status: 'unpaid',
        menu_uuid: order.menu_uuid,
        business_uuid: order.business_uuid,
        amount: order.amount,
        currency: order.currency,
        payment_processor: 'cash',
        fulfilment_type: 'pickup',
        requested_time: null,
        estimated_ready_at: null,
        delivery_zone: null,
        estimated_delivery_at: null,
        created_at: order.created_at,
        updated_at: expect.any(String),
      });

      expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
      const updated = await stream.waitFor(
        (e) => e.event === 'order.updated' && e.data.uuid === order.uuid,
      );
      // Accepted without a ready time: the menu has no prep time, so ready at acceptance.
      expect(updated.data).toMatchObject({ status: 'accepted', payment_status: 'unpaid' });
      expect(Date.parse(updated.data.estimated_ready_at as string)).not.toBeNaN();
    } finally {
      stream.close();
    }
  });

  it('does not send another owner’s orders', async () => {
    const stream = await openOrderStream(t, other.token);
    try {
      const mine = await placeOrder(t, orderBody(catalog));
      const theirs = await placeOrder(t, orderBody(othersCatalog));
      // Events arrive in commit order: once theirs is here, mine would have been too.
      await stream.waitFor((e) => e.data?.uuid === theirs.uuid);
      expect(stream.events.map((e) => e.data.uuid)).not.toContain(mine.uuid);
    } finally {
      stream.close();
    }
  });

  it('sends nothing for a refused or rolled-back order (published after commit only)', async () => {
    const stream = await openOrderStream(t, owner.token);
    try {
      expectError(
        await placeOrderRequest(t, orderBody(catalog, { amount: 12345 })),
        422,
        'UNPROCESSABLE',
      );
      await t.dataSource.query(`
        CREATE FUNCTION test_refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused'; END $$`);
      await t.dataSource.query(
        'CREATE TRIGGER test_refuse_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION test_refuse_outbox()',
      );
      try {
        expectError(await placeOrderRequest(t, orderBody(catalog)), 500, 'INTERNAL');
      } finally {
        await t.dataSource.query('DROP TRIGGER test_refuse_outbox ON outbox');
        await t.dataSource.query('DROP FUNCTION test_refuse_outbox()');
      }
      const good = await placeOrder(t, orderBody(catalog));
      await stream.waitFor((e) => e.data?.uuid === good.uuid);
      expect(stream.events.map((e) => e.data.uuid)).toEqual([good.uuid]);
    } finally {
      stream.close();
    }
  });

  it('accepts the usual headers too', async () => {
    const stream = await openStream(t.baseUrl, `${t.core}/orders/stream`, {}, owner.headers);
    try {
      expect(stream.status).toBe(200);
    } finally {
      stream.close();
    }
  });

  it('refuses a stream without a valid key or token', async () => {
    const path = `${t.core}/orders/stream`;
    const key = t.config.apiKeys[0];
    const noKey = await openStream(t.baseUrl, path, { access_token: owner.token });
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body).error.code).toBe('API_KEY_INVALID');
    const noToken = await openStream(t.baseUrl, path, { api_key: key });
    expect(noToken.status).toBe(401);
    expect(JSON.parse(noToken.body).error.code).toBe('UNAUTHENTICATED');
    const badToken = await openStream(t.baseUrl, path, {
      api_key: key,
      access_token: `${owner.token}x`,
    });
    expect(badToken.status).toBe(401);
    expect(t.app.get(OrderStreamHub).size).toBe(0);
  });

  it('sends heartbeat comments while idle', async () => {
    const hub = t.app.get(OrderStreamHub);
    hub.heartbeatMs = 100;
    const stream = await openOrderStream(t, owner.token);
    try {
      await stream.waitForComment('heartbeat', 5_000);
    } finally {
      hub.heartbeatMs = 15_000;
      stream.close();
    }
  });

  it('forgets a stream when the client goes away', async () => {
    const hub = t.app.get(OrderStreamHub);
    const stream = await openOrderStream(t, owner.token);
    expect(hub.size).toBe(1);
    stream.close();
    for (let i = 0; i < 50 && hub.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(hub.size).toBe(0);
  });

  it('ends open streams when the service shuts down, so it can stop', async () => {
    const own = await startTestApp();
    let closed = false;
    try {
      const user = await createUser(own);
      const stream = await openOrderStream(own, user.token);
      await own.close();
      closed = true;
      await stream.ended;
    } finally {
      if (!closed) await own.close();
    }
  });

  serverOnly(
    'reaches a stream on another instance of the service sharing the database',
    async () => {
      const db = await createTestDatabase();
      let first: TestApp | undefined;
      let second: TestApp | undefined;
      try {
        first = await startTestApp({}, { database: db });
        second = await startTestApp({}, { database: db });
        const user = await createUser(first);
        const shop = await newCatalog(first, user);
        const stream = await openOrderStream(second, user.token);
        try {
          const order = await placeOrder(first, orderBody(shop));
          await stream.waitFor((e) => e.event === 'order.created' && e.data.uuid === order.uuid);
          expectOk(
            await updateOrderRequest(first, user.headers, order.uuid, { status: 'rejected' }),
          );
          const updated = await stream.waitFor(
            (e) => e.event === 'order.updated' && e.data.uuid === order.uuid,
          );
          expect(updated.data.status).toBe('rejected');
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
