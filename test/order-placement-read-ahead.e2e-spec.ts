import { Client } from 'pg';
import { newCatalog } from './support/entity';
import { createUser } from './support/factory';
import { readMails } from './support/mail';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { createWebhook } from './support/webhooks';

/** The statements of a placement this file follows, by what they touch. */
const FOLLOWED: Array<[string, RegExp]> = [
  ['owner', /from "users"/i],
  ['endpoints', /from webhook_endpoints/i],
  ['order', /insert into "orders"/i],
];

// R22: the server notifies the owner. R39: outbound webhooks.
describe('order placement: what the announcement reads leaves with the order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(() => t?.close());

  /** Places an order, noting when each followed statement was sent and answered. */
  async function placeFollowed(body: Record<string, unknown>): Promise<{
    seen: string[];
    order: Record<string, any>;
  }> {
    const seen: string[] = [];
    const original = Client.prototype.query;
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: unknown[]
    ) {
      // A statement goes as text and values, as a config, or as a query
      // object with its callback (the one carrying the transaction's BEGIN).
      const query = args[0] as string | { text?: string; callback?: (...a: unknown[]) => void };
      const text = typeof query === 'string' ? query : (query?.text ?? '');
      const followed = FOLLOWED.find(([, pattern]) => pattern.test(text));
      if (!followed) return (original as (...a: unknown[]) => unknown).apply(this, args);
      const [name] = followed;
      seen.push(`${name} sent`);
      if (typeof query !== 'string' && query.callback) {
        const answered = query.callback;
        query.callback = (...result: unknown[]) => {
          seen.push(`${name} answered`);
          answered(...result);
        };
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      }
      const answer = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      return answer.then((result) => {
        seen.push(`${name} answered`);
        return result;
      });
    } as never);
    try {
      return { seen, order: await placeOrder(t, body) };
    } finally {
      spy.mockRestore();
    }
  }

  /** The three followed statements, each sent once, all before the first answer: one write, one round trip. */
  function expectOneWrite(seen: string[]): void {
    expect(seen).toHaveLength(6);
    expect([...seen.slice(0, 3)].sort()).toEqual(['endpoints sent', 'order sent', 'owner sent']);
    expect([...seen.slice(3)].sort()).toEqual([
      'endpoints answered',
      'order answered',
      'owner answered',
    ]);
  }

  /** The owner's mails about this order (its alert names the reference in the subject). */
  async function ownerMailsOf(email: string, reference: string): Promise<number> {
    return (await readMails(t, email)).filter((mail) => mail.subject.includes(reference)).length;
  }

  it('sends the owner’s address and the endpoints’ read with the order’s insert, in one write', async () => {
    const owner = await createUser(t);
    const catalog = await newCatalog(t, owner);
    const wanted = await createWebhook(t, owner, {
      url: 'http://127.0.0.1:9/created',
      events: ['order.created'],
    });
    await createWebhook(t, owner, {
      url: 'http://127.0.0.1:9/moves',
      events: ['order.status_changed'],
    });
    // Another owner's endpoint that wants every new order: never this one's.
    const other = await createUser(t);
    await createWebhook(t, other, { url: 'http://127.0.0.1:9/other', events: ['order.created'] });

    const { seen, order } = await placeFollowed(orderBody(catalog));

    expectOneWrite(seen);
    const events = await t.dataSource.query(
      `SELECT e.endpoint_uuid, e.type, e.body FROM webhook_events e
        WHERE e.body::jsonb -> 'data' -> 'order' ->> 'uuid' = $1`,
      [order.uuid],
    );
    expect(events).toEqual([
      { endpoint_uuid: wanted.uuid, type: 'order.created', body: expect.any(String) },
    ]);
    expect(JSON.parse(events[0].body).data.order).toMatchObject({
      uuid: order.uuid,
      order_reference: order.order_reference,
    });
    expect(await ownerMailsOf(owner.email, order.order_reference)).toBe(1);
  });

  it('reads the endpoints again for a later change of the same order', async () => {
    const owner = await createUser(t);
    const catalog = await newCatalog(t, owner);
    const moves = await createWebhook(t, owner, {
      url: 'http://127.0.0.1:9/moves',
      events: ['order.status_changed'],
    });
    const order = await placeOrder(t, orderBody(catalog));
    expect(
      (await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' })).status,
    ).toBe(200);
    const events = await t.dataSource.query(
      `SELECT endpoint_uuid, type FROM webhook_events
        WHERE body::jsonb -> 'data' -> 'order' ->> 'uuid' = $1`,
      [order.uuid],
    );
    expect(events).toEqual([{ endpoint_uuid: moves.uuid, type: 'order.status_changed' }]);
  });

  it('places an order of an owner without endpoints as before, the owner’s mail sent', async () => {
    const owner = await createUser(t);
    const catalog = await newCatalog(t, owner);
    const { seen, order } = await placeFollowed(orderBody(catalog));
    expectOneWrite(seen);
    expect(
      await t.dataSource.query(`SELECT 1 FROM webhook_events WHERE body LIKE $1`, [
        `%${order.uuid}%`,
      ]),
    ).toEqual([]);
    expect(await ownerMailsOf(owner.email, order.order_reference)).toBe(1);
  });
});
