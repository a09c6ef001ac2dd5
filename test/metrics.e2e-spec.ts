import { randomUUID } from 'node:crypto';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  guestHeaders,
  openOrderStream,
  orderBody,
  placeOrder,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The value of one sample line (`name{labels} value`), or undefined when it is absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const head = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((entry) => entry.startsWith(head));
  return line === undefined ? undefined : Number(line.slice(head.length));
}

async function scrape(t: TestApp): Promise<string> {
  const res = await t.http.get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return res.text;
}

// R40: metrics.
describe('GET /metrics', () => {
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    catalog = await newCatalog(t, owner);
  });
  afterAll(() => t?.close());

  it('is open without a key outside production and answers process, Node and service metrics', async () => {
    const text = await scrape(t);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE orders_placed_total counter');
    expect(sample(text, 'outbox_rows', 'state="pending"')).toEqual(expect.any(Number));
    expect(sample(text, 'outbox_rows', 'state="failed"')).toEqual(expect.any(Number));
    expect(sample(text, 'sse_streams_open')).toEqual(expect.any(Number));
  });

  it('counts a placed order once, and not its idempotent replay', async () => {
    const before = sample(await scrape(t), 'orders_placed_total') ?? 0;
    const headers = { ...guestHeaders(t), 'idempotency-key': randomUUID() };
    const body = orderBody(catalog);
    await placeOrder(t, body, headers);
    expect(sample(await scrape(t), 'orders_placed_total')).toBe(before + 1);

    const replay = await t.http.post(`${t.orders}/order`).set(headers).send(body);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(sample(await scrape(t), 'orders_placed_total')).toBe(before + 1);
  });

  it('counts a payment the owner records by hand as a provider-confirmed one is counted', async () => {
    const order = await placeOrder(t, orderBody(catalog), guestHeaders(t));
    const text = await scrape(t);
    const paid = sample(text, 'payments_total', 'result="paid"') ?? 0;
    const refunded = sample(text, 'payments_total', 'result="refunded"') ?? 0;
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { payment_status: 'paid' }));
    expect(sample(await scrape(t), 'payments_total', 'result="paid"')).toBe(paid + 1);
    const back = await updateOrderRequest(t, owner.headers, order.uuid, {
      payment_status: 'refunded',
    });
    expect(expectOk(back).payment_status).toBe('refunded');
    const after = await scrape(t);
    expect(sample(after, 'payments_total', 'result="paid"')).toBe(paid + 1);
    expect(sample(after, 'payments_total', 'result="refunded"')).toBe(refunded + 1);
  });

  it('labels requests by route template, never by a raw URL holding an id', async () => {
    const item = catalog.items[0];
    const path = entityPath(t, 'business_menu_item', item.uuid);
    expect((await t.http.get(path).set(owner.headers)).status).toBe(200);
    expect((await t.http.get(`/no/such/route/${randomUUID()}`)).status).toBe(404);
    const malformed = await t.http
      .post(`${t.orders}/order`)
      .set(guestHeaders(t))
      .set('content-type', 'application/json')
      .send('{"menu_uuid": ');
    expect(malformed.status).toBe(400);

    const text = await scrape(t);
    const itemRoute = `${t.core}/smart-meta-manager/entity/:type/:uuid`;
    expect(
      sample(
        text,
        'http_request_duration_seconds_count',
        `method="GET",route="${itemRoute}",status="200"`,
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count',
        'method="GET",route="unmatched",status="404"',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'http_request_duration_seconds_count',
        'method="POST",route="unmatched",status="400"',
      ),
    ).toBeGreaterThanOrEqual(1);
    const labelled = text.split('\n').filter((line) => line.includes('{'));
    expect(labelled.length).toBeGreaterThan(0);
    expect(labelled.filter((line) => UUID.test(line))).toEqual([]);
  });

  it('counts outbox rows by state from the database at scrape time', async () => {
    await t.dataSource.query(
      `INSERT INTO outbox (kind, payload, status, attempts, last_error)
       VALUES ('mail', '{}'::jsonb, 'failed', 9, 'given up')`,
    );
    const [{ failed }] = await t.dataSource.query(
      `SELECT count(*)::int AS failed FROM outbox WHERE status = 'failed'`,
    );
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(sample(await scrape(t), 'outbox_rows', 'state="failed"')).toBe(failed);
  });

  it('counts the order streams open in this process', async () => {
    const before = sample(await scrape(t), 'sse_streams_open') ?? 0;
    const stream = await openOrderStream(t, owner.token);
    try {
      expect(stream.status).toBe(200);
      expect(sample(await scrape(t), 'sse_streams_open')).toBe(before + 1);
    } finally {
      stream.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      NODE_ENV: 'production',
      FRONT_URL: 'https://menu.example',
      METRICS_TOKEN,
    });
  });
  afterAll(() => t?.close());

  it('refuses a scrape without the token or with another one, and answers with it', async () => {
    expectError(await t.http.get('/metrics'), 401, 'UNAUTHENTICATED');
    expectError(
      await t.http.get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}x`),
      401,
      'UNAUTHENTICATED',
    );
    expectError(
      await t.http.get('/metrics').set('authorization', METRICS_TOKEN),
      401,
      'UNAUTHENTICATED',
    );
    const res = await t.http.get('/metrics').set('authorization', `Bearer ${METRICS_TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE orders_placed_total counter');
  });
});

describe('GET /metrics in production without METRICS_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ NODE_ENV: 'production', FRONT_URL: 'https://menu.example' });
  });
  afterAll(() => t?.close());

  it('does not exist', async () => {
    expectError(await t.http.get('/metrics'), 404, 'NOT_FOUND');
  });
});
