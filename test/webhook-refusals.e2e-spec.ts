import { OutboxWorker } from '../src/outbox/outbox.worker';
import { newBusiness } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';
import {
  createWebhook,
  createWebhookRequest,
  deliveriesOf,
  storedWebhookRows as stored,
} from './support/webhooks';

// R39: outbound webhooks.
// R68: webhook address guard.
describe('outbound webhooks: refusals, each storing nothing', () => {
  let t: TestApp;
  let worker: OutboxWorker;
  let owner: TestUser;
  let stranger: TestUser;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' });
    worker = t.app.get(OutboxWorker);
    owner = await createUser(t);
    stranger = await createUser(t);
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });
  beforeEach(() => {
    receiver.answers = [];
  });

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
    expectOk(await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(owner.headers), 202);
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
