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

interface Stored {
  endpoints: number;
  events: number;
  deliveries: number;
}

async function stored(t: TestApp): Promise<Stored> {
  const [row] = await t.dataSource.query(
    `SELECT (SELECT count(*) FROM webhook_endpoints)::int AS endpoints,
            (SELECT count(*) FROM webhook_events)::int AS events,
            (SELECT count(*) FROM webhook_deliveries)::int AS deliveries`,
  );
  return row as Stored;
}

function createWebhookRequest(t: TestApp, user: TestUser, body: Record<string, unknown>) {
  return t.http.post(`${t.core}/webhooks`).set(user.headers).send(body);
}

async function createWebhook(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<any> {
  return expectOk(await createWebhookRequest(t, user, body), 201);
}

async function deliveriesOf(t: TestApp, user: TestUser, uuid: string): Promise<any[]> {
  return expectOk(
    await t.http.get(`${t.core}/webhooks/${uuid}/deliveries?per_page=100`).set(user.headers),
  );
}

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
  let stranger: TestUser;
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
    stranger = await createUser(t);
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

  describe('refusals, each storing nothing', () => {
    it('refuses a URL that is not http(s) even with private addresses allowed', async () => {
      const before = await stored(t);
      for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'not a url']) {
        const res = await createWebhookRequest(t, owner, { url, events: ['order.created'] });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details[0].field).toBe('url');
      }
      expect(await stored(t)).toEqual(before);
    });

    it('refuses an unknown event name, none, or more than four', async () => {
      const before = await stored(t);
      for (const events of [['order.deleted'], [], 'order.created', ['ping', 'ping']]) {
        const res = await createWebhookRequest(t, owner, { url: receiver.url(), events });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details[0].field).toBe('events');
      }
      expect(await stored(t)).toEqual(before);
    });

    it('refuses a business of another user (403) or none at all (404)', async () => {
      const theirs = await newBusiness(t, stranger);
      const before = await stored(t);
      expectError(
        await createWebhookRequest(t, owner, {
          url: receiver.url(),
          events: ['ping'],
          business_uuid: theirs.uuid,
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await createWebhookRequest(t, owner, {
          url: receiver.url(),
          events: ['ping'],
          business_uuid: '00000000-0000-4000-8000-000000000000',
        }),
        404,
        'NOT_FOUND',
      );
      expect(await stored(t)).toEqual(before);
    });

    it('refuses an eleventh endpoint', async () => {
      const user = await createUser(t);
      for (let i = 0; i < 10; i += 1) {
        await createWebhook(t, user, { url: receiver.url(`/ten-${i}`), events: ['ping'] });
      }
      const before = await stored(t);
      expectError(
        await createWebhookRequest(t, user, { url: receiver.url('/eleven'), events: ['ping'] }),
        422,
        'UNPROCESSABLE',
      );
      expect(await stored(t)).toEqual(before);
    });

    it("answers 404 for another user's endpoint, whatever the operation, and changes nothing", async () => {
      const endpoint = await createWebhook(t, owner, {
        url: receiver.url('/mine'),
        events: ['ping'],
      });
      expectOk(
        await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers),
        202,
      );
      await worker.drain();
      const [delivery] = await deliveriesOf(t, owner, endpoint.uuid);
      const before = await stored(t);
      const [row] = await t.dataSource.query('SELECT * FROM webhook_endpoints WHERE uuid = $1', [
        endpoint.uuid,
      ]);
      const base = `${t.core}/webhooks/${endpoint.uuid}`;
      const calls = [
        t.http.get(base),
        t.http.put(base).send({ url: receiver.url('/stolen'), enabled: false }),
        t.http.delete(base),
        t.http.post(`${base}/rotate-secret`),
        t.http.post(`${base}/ping`),
        t.http.get(`${base}/deliveries`),
        t.http.post(`${base}/deliveries/${delivery.uuid}/redeliver`),
      ];
      for (const call of calls) expectError(await call.set(stranger.headers), 404, 'NOT_FOUND');
      expect(await stored(t)).toEqual(before);
      const [after] = await t.dataSource.query('SELECT * FROM webhook_endpoints WHERE uuid = $1', [
        endpoint.uuid,
      ]);
      expect(after).toEqual(row);
      const theirs = expectOk(await t.http.get(`${t.core}/webhooks`).set(stranger.headers));
      expect(theirs).toEqual([]);
      expectOk(await t.http.delete(base).set(owner.headers));
    });
  });
});

describe('outbound webhooks without private addresses allowed', () => {
  let t: TestApp;
  let owner: TestUser;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });

  it.each([
    ['a loopback address', () => receiver.url()],
    ['a name that resolves to loopback', () => 'http://localhost/hooks'],
    ['the metadata address', () => 'http://169.254.169.254/'],
    ['a private address', () => 'https://10.1.2.3/hooks'],
    ['an IPv4-mapped IPv6 loopback', () => 'http://[::ffff:127.0.0.1]/hooks'],
    ['a file URL', () => 'file:///etc/passwd'],
  ])('refuses %s with 400 on url, storing nothing', async (_what, url) => {
    const before = await stored(t);
    const res = await createWebhookRequest(t, owner, { url: url(), events: ['ping'] });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'url' })]);
    expect(await stored(t)).toEqual(before);
  });

  it('refuses to change a URL to a private address, changing nothing', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: 'https://93.184.216.34/hooks',
      events: ['ping'],
    });
    for (const url of ['http://127.0.0.1/hooks', 'http://169.254.169.254/', 'file:///etc/passwd']) {
      const res = await t.http
        .put(`${t.core}/webhooks/${endpoint.uuid}`)
        .set(owner.headers)
        .send({ url, description: 'changed' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'url' })]);
    }
    const after = expectOk(
      await t.http.get(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers),
    );
    expect(after).toMatchObject({ url: 'https://93.184.216.34/hooks', description: null });
    expectOk(await t.http.delete(`${t.core}/webhooks/${endpoint.uuid}`).set(owner.headers));
  });

  it('checks the address again at delivery: a host that now points inside is a failed attempt', async () => {
    const endpoint = await createWebhook(t, owner, {
      url: 'http://93.184.216.34/hooks',
      events: ['ping'],
    });
    const worker = t.app.get(OutboxWorker);
    const port = new URL(receiver.url()).port;
    for (const inside of [`http://127.0.0.1:${port}/hooks`, `http://localhost:${port}/hooks`]) {
      // As if the name had been re-pointed after the URL was accepted.
      await t.dataSource.query('UPDATE webhook_endpoints SET url = $2 WHERE uuid = $1', [
        endpoint.uuid,
        inside,
      ]);
      expectOk(
        await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers),
        202,
      );
      await worker.drain();
    }
    expect(receiver.received).toHaveLength(0);
    // Each refused attempt is a failed attempt like any other, retried on the schedule.
    const log = (await deliveriesOf(t, owner, endpoint.uuid)).filter(
      (entry) => entry.attempt === 1,
    );
    expect(log).toHaveLength(2);
    for (const entry of log) {
      expect(entry).toMatchObject({ status: 'failed', response_status: null });
      expect(entry.error).toMatch(/^Refused to connect.*127\.0\.0\.1 is a loopback address/);
    }
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
