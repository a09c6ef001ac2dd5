import { register } from 'prom-client';
import { Clock } from '../src/common/clock';
import { EventBus } from '../src/database/event-bus';
import { OutboxWorker } from '../src/outbox/outbox.worker';
import { createTestDatabase } from './support/database';
import { serverOnly } from './support/server-only';
import { Catalog, newBusiness, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, placeOrderRequest, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { ReceivedWebhook, verifyWebhook, WebhookReceiver } from './support/webhook-receiver';
import { createWebhook, deliveriesOf, storedWebhookRows as stored } from './support/webhooks';

function eventOf(request: ReceivedWebhook): any {
  return JSON.parse(request.body);
}

async function samples(name: string, result: string): Promise<number> {
  const metric = await register.getSingleMetric(name)?.get();
  return metric?.values.find((value) => value.labels.result === result)?.value ?? 0;
}

// R39: outbound webhooks.

// R68: webhook address guard.
describe('outbound webhooks', () => {
  let t: TestApp;
  let worker: OutboxWorker;
  let clock: Clock;
  let owner: TestUser;
  let catalog: Catalog;
  const receiver = new WebhookReceiver();

  /** Delivers what is due now, then what the schedule (1 s waits in these tests) makes due next. */
  async function deliverAll(rounds = 5): Promise<void> {
    await worker.drain();
    for (let round = 0; round < rounds; round += 1) {
      clock.advance(1_100);
      await worker.drain();
    }
  }

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' });
    worker = t.app.get(OutboxWorker);
    clock = t.app.get(Clock);
    owner = await createUser(t);
    catalog = await newCatalog(t, owner);
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });
  beforeEach(() => {
    receiver.answers = [];
  });

  it('creates an endpoint with its secret shown once, and never stores the secret in the clear', async () => {
    const created = await createWebhook(t, owner, {
      url: receiver.url('/crud'),
      events: ['order.created'],
      description: 'Kitchen printer',
    });
    expect(created).toMatchObject({
      url: receiver.url('/crud'),
      events: ['order.created'],
      description: 'Kitchen printer',
      business_uuid: null,
      enabled: true,
      consecutive_failures: 0,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);

    const list = expectOk(await t.http.get(`${t.core}/webhooks`).set(owner.headers));
    expect(list.map((endpoint: any) => endpoint.uuid)).toContain(created.uuid);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const one = expectOk(await t.http.get(`${t.core}/webhooks/${created.uuid}`).set(owner.headers));
    expect(one).not.toHaveProperty('secret');

    const [row] = await t.dataSource.query(
      'SELECT secret_ciphertext FROM webhook_endpoints WHERE uuid = $1',
      [created.uuid],
    );
    expect(row.secret_ciphertext).not.toContain(created.secret.slice(6));

    const updated = expectOk(
      await t.http
        .put(`${t.core}/webhooks/${created.uuid}`)
        .set(owner.headers)
        .send({ events: ['order.created', 'ping'], description: '', enabled: false }),
    );
    expect(updated).toMatchObject({
      events: ['order.created', 'ping'],
      description: null,
      enabled: false,
    });

    expectOk(await t.http.delete(`${t.core}/webhooks/${created.uuid}`).set(owner.headers));
    expectError(
      await t.http.get(`${t.core}/webhooks/${created.uuid}`).set(owner.headers),
      404,
      'NOT_FOUND',
    );
  });

  it('sends order.created for a placed order and order.status_changed for an owner update, signed', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: receiver.url('/orders'),
      events: ['order.created', 'order.status_changed', 'order.payment_changed'],
    });
    const onlyStatus = await createWebhook(t, owner, {
      url: receiver.url('/status-only'),
      events: ['order.status_changed'],
    });

    const order = await placeOrder(t, orderBody(catalog));
    await worker.drain();
    let got = receiver.at('/orders');
    expect(got).toHaveLength(1);
    const created = verifyWebhook(endpoint.secret, got[0]) as any;
    expect(created).toMatchObject({ type: 'order.created', data: { order: { uuid: order.uuid } } });
    expect(created.id).toBe(got[0].headers['webhook-id']);
    expect(Date.parse(created.created_at)).not.toBeNaN();
    // The owner's view of the order: the guest's token is not part of it.
    const { order_token: guestToken, ...ownerView } = order as typeof order & {
      order_token?: string;
    };
    expect(guestToken).toEqual(expect.any(String));
    // The guest's answer leaves out who took the order; the owner's view names it (null: the guest).
    expect(created.data.order).toEqual({ ...ownerView, created_by: null });
    // And what the owner reads of it from the database afterwards, its first payment included.
    const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
    expect(created.data.order).toEqual(read);
    expect(created.data.order.payments).toHaveLength(1);
    expect(got[0].headers['content-type']).toBe('application/json');
    expect(receiver.at('/status-only')).toHaveLength(0);

    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
    await worker.drain();
    got = receiver.at('/orders');
    expect(got).toHaveLength(2);
    const changed = verifyWebhook(endpoint.secret, got[1]) as any;
    expect(changed.type).toBe('order.status_changed');
    expect(changed.data.order).toMatchObject({ uuid: order.uuid, status: 'accepted' });
    expect(changed.data.order.history.map((entry: any) => entry.to)).toEqual([
      'pending',
      'accepted',
    ]);
    expect(changed.id).not.toBe(created.id);
    const [statusOnly] = receiver.at('/status-only');
    expect(verifyWebhook(onlyStatus.secret, statusOnly)).toMatchObject({
      type: 'order.status_changed',
    });

    // A payment change sends order.payment_changed; a note alone sends nothing.
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { payment_status: 'paid' }));
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { owner_note: 'table 4' }));
    await worker.drain();
    got = receiver.at('/orders');
    expect(got.map((request) => eventOf(request).type)).toEqual([
      'order.created',
      'order.status_changed',
      'order.payment_changed',
    ]);
    expect(verifyWebhook(endpoint.secret, got[2])).toMatchObject({
      data: { order: { payment_status: 'paid' } },
    });

    const log = await deliveriesOf(t, owner, endpoint.uuid);
    expect(log.map((entry) => entry.event_type)).toEqual([
      'order.payment_changed',
      'order.status_changed',
      'order.created',
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({
        attempt: 1,
        status: 'succeeded',
        response_status: 200,
        error: null,
      });
      expect(entry.next_attempt_at).toBeNull();
      expect(Number.isInteger(entry.duration_ms)).toBe(true);
    }
    for (const uuid of [endpoint.uuid, onlyStatus.uuid]) {
      expectOk(await t.http.delete(`${t.core}/webhooks/${uuid}`).set(owner.headers));
    }
  });

  it("limits an endpoint with business_uuid to that business's orders", async () => {
    const other = await newBusiness(t, owner);
    const scoped = await createWebhook(t, owner, {
      url: receiver.url('/scoped-other'),
      events: ['order.created'],
      business_uuid: other.uuid,
    });
    const mine = await createWebhook(t, owner, {
      url: receiver.url('/scoped-mine'),
      events: ['order.created'],
      business_uuid: catalog.business.uuid.toUpperCase(),
    });
    expect(mine.business_uuid).toBe(catalog.business.uuid);
    await placeOrder(t, orderBody(catalog));
    await worker.drain();
    expect(receiver.at('/scoped-other')).toHaveLength(0);
    expect(receiver.at('/scoped-mine')).toHaveLength(1);
    for (const uuid of [scoped.uuid, mine.uuid]) {
      expectOk(await t.http.delete(`${t.core}/webhooks/${uuid}`).set(owner.headers));
    }
  });

  it('retries on the schedule with a stable webhook-id: 500, 500, then 200 makes three attempts', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: receiver.url('/flaky'),
      events: ['order.created'],
    });
    const retriesBefore = await samples('webhook_deliveries_total', 'retry');
    receiver.answers = [500, 500, 200];
    receiver.answerBody = 'x'.repeat(5000);
    try {
      await placeOrder(t, orderBody(catalog));
      await deliverAll();
    } finally {
      receiver.answerBody = 'ok';
    }
    const got = receiver.at('/flaky');
    expect(got).toHaveLength(3);
    const ids = new Set(got.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of got) verifyWebhook(endpoint.secret, request);
    expect(new Set(got.map((request) => request.body)).size).toBe(1);

    const log = await deliveriesOf(t, owner, endpoint.uuid);
    expect(log.map((entry) => [entry.attempt, entry.status, entry.response_status])).toEqual([
      [3, 'succeeded', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(log.every((entry) => entry.event_id === got[0].headers['webhook-id'])).toBe(true);
    expect(log[1].next_attempt_at).not.toBeNull();
    expect(log[1].error).toContain('500');
    expect(log[0].next_attempt_at).toBeNull();
    // At most 1 KB of an answer is kept.
    expect(Buffer.byteLength(log[1].response_body)).toBeLessThanOrEqual(1024);
    expect(await samples('webhook_deliveries_total', 'retry')).toBe(retriesBefore + 2);
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });

  it('fails a delivery after the last attempt, and a later redelivery succeeds with the same webhook-id', async () => {
    const down = new WebhookReceiver();
    await down.start();
    const endpoint = await createWebhook(t, owner, {
      url: down.url('/down'),
      events: ['order.created'],
    });
    await down.stop();
    await placeOrder(t, orderBody(catalog));
    await deliverAll();
    let log = await deliveriesOf(t, owner, endpoint.uuid);
    // One attempt and one retry per wait of the schedule (1,1,1).
    expect(log.map((entry) => [entry.attempt, entry.status])).toEqual([
      [4, 'failed'],
      [3, 'failed'],
      [2, 'failed'],
      [1, 'failed'],
    ]);
    expect(log[0].next_attempt_at).toBeNull();
    expect(log[0].response_status).toBeNull();
    expect(log[0].error).toMatch(/ECONNREFUSED/);
    const after = expectOk(
      await t.http.get(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers),
    );
    expect(after.consecutive_failures).toBe(1);

    await down.start();
    try {
      const queued = expectOk(
        await t.http
          .post(`${t.core}/webhooks/${endpoint.uuid}/deliveries/${log[2].uuid}/redeliver`)
          .set(owner.headers),
        202,
      );
      expect(queued).toMatchObject({ attempt: 5, status: 'pending', event_id: log[0].event_id });
      await worker.drain();
      const [request] = down.at('/down');
      expect(request.headers['webhook-id']).toBe(log[0].event_id);
      expect(verifyWebhook(endpoint.secret, request)).toMatchObject({ type: 'order.created' });
      log = await deliveriesOf(t, owner, endpoint.uuid);
      expect(log[0]).toMatchObject({ uuid: queued.uuid, attempt: 5, status: 'succeeded' });
      const healed = expectOk(
        await t.http.get(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers),
      );
      expect(healed.consecutive_failures).toBe(0);
    } finally {
      await down.stop();
    }
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });

  it('signs with the new secret only once the secret is rotated', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: receiver.url('/rotate'),
      events: ['ping'],
    });
    expectOk(await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers), 202);
    await worker.drain();
    const rotated = expectOk(
      await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/rotate-secret`).set(owner.headers),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expectOk(await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers), 202);
    await worker.drain();

    const [before, later] = receiver.at('/rotate');
    expect(verifyWebhook(endpoint.secret, before)).toMatchObject({
      type: 'ping',
      data: { webhook: { uuid: endpoint.uuid } },
    });
    expect(() => verifyWebhook(rotated.secret, before)).toThrow();
    expect(verifyWebhook(rotated.secret, later)).toMatchObject({ type: 'ping' });
    expect(() => verifyWebhook(endpoint.secret, later)).toThrow();
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });

  it('sends nothing for an order change that rolls back', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: receiver.url('/rollback'),
      events: ['order.created'],
    });
    const failing = 'rollback@example.test';
    // Runs after the webhook listener, in the same transaction, and makes it roll back.
    t.app.get(EventBus).on('order.changed', async ({ order }) => {
      if (order.customerEmailAddress === failing)
        throw new Error('forced failure after the listener');
    });
    const before = await stored(t);
    const res = await placeOrderRequest(t, orderBody(catalog, { customer_email_address: failing }));
    expectError(res, 500, 'INTERNAL');
    expect(await stored(t)).toEqual(before);
    await deliverAll(1);
    expect(receiver.at('/rollback')).toHaveLength(0);
    expect(await deliveriesOf(t, owner, endpoint.uuid)).toEqual([]);
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });

  it('disables an endpoint after 20 failed deliveries in a row and notifies its owner', async () => {
    const down = new WebhookReceiver();
    await down.start();
    const endpoint = await createWebhook(t, owner, { url: down.url('/gone'), events: ['ping'] });
    await down.stop();
    // Nineteen failed deliveries already counted; the twentieth disables it.
    await t.dataSource.query(
      'UPDATE webhook_endpoints SET consecutive_failures = 19 WHERE uuid = $1',
      [endpoint.uuid],
    );
    expectOk(await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers), 202);
    await deliverAll();
    const after = expectOk(
      await t.http.get(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers),
    );
    expect(after).toMatchObject({ enabled: false, consecutive_failures: 20 });
    const notes = expectOk(
      await t.http.get(`${t.core}/notification/user/${owner.uuid}`).set(owner.headers),
    );
    expect(notes.filter((note: any) => note.kind === 'webhook.disabled')).toEqual([
      expect.objectContaining({ data: { webhook_uuid: endpoint.uuid, url: endpoint.url } }),
    ]);
    // A disabled endpoint gets no new events, and no pings until it is enabled again.
    await placeOrder(t, orderBody(catalog));
    expectError(
      await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers),
      422,
      'UNPROCESSABLE',
    );
    const enabled = expectOk(
      await t.http
        .put(`${t.core}/webhooks/${endpoint.uuid}`)
        .set(owner.headers)
        .send({ enabled: true }),
    );
    expect(enabled).toMatchObject({ enabled: true, consecutive_failures: 0 });
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });
});

describe('outbound webhooks across processes', () => {
  serverOnly('sends each delivery once when two processes deliver the outbox', async () => {
    const db = await createTestDatabase();
    const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
    const receiver = await new WebhookReceiver().start();
    let a: TestApp | undefined;
    let b: TestApp | undefined;
    try {
      a = await startTestApp(env, { database: db });
      b = await startTestApp(env, { database: db });
      const owner = await createUser(a);
      const catalog = await newCatalog(a, owner);
      const endpoint = await createWebhook(a, owner, {
        url: receiver.url('/twice'),
        events: ['order.created', 'order.status_changed'],
      });
      const orders = [];
      for (let i = 0; i < 6; i += 1) {
        orders.push(await placeOrder(i % 2 ? a : b, orderBody(catalog)));
      }
      for (const order of orders.slice(0, 3)) {
        expectOk(await updateOrderRequest(b, owner.headers, order.uuid, { status: 'accepted' }));
      }
      const workers = [a.app.get(OutboxWorker), b.app.get(OutboxWorker)];
      await Promise.all([...workers, ...workers].map((worker) => worker.drain()));
      await Promise.all(workers.map((worker) => worker.drain()));
      const got = receiver.at('/twice');
      expect(got).toHaveLength(9);
      expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(9);
      for (const request of got) verifyWebhook(endpoint.secret, request);
      const [counts] = await a.dataSource.query(
        `SELECT count(*)::int AS attempts, count(DISTINCT event_uuid)::int AS events
           FROM webhook_deliveries WHERE status = 'succeeded'`,
      );
      expect(counts).toEqual({ attempts: 9, events: 9 });
    } finally {
      await a?.close();
      await b?.close();
      await receiver.stop();
      await db.drop();
    }
  });
});
