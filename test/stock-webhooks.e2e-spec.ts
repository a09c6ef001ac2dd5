import { Clock } from '../src/common/clock';
import { OutboxWorker } from '../src/outbox/outbox.worker';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  cartLine,
  orderBody,
  placeOrder,
  placeOrderRequest,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';
import { verifyWebhook, WebhookReceiver } from './support/webhook-receiver';

// R97: `stock.low` and `item.sold_out`, once per crossing.
describe('stock webhooks: stock.low and item.sold_out once per crossing', () => {
  let t: TestApp;
  let worker: OutboxWorker;
  let clock: Clock;
  let owner: TestUser;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1',
      // One delivery at a time to an endpoint (two by default), oldest first, so
      // the crossings arrive in the order they happened and the test can say so.
      OUTBOX_WEBHOOK_PER_ENDPOINT: '1',
    });
    worker = t.app.get(OutboxWorker);
    clock = t.app.get(Clock);
    owner = await createUser(t);
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
  });

  async function deliverAll(): Promise<void> {
    await worker.drain();
    for (let round = 0; round < 3; round += 1) {
      clock.advance(1_100);
      await worker.drain();
    }
  }

  async function endpointFor(catalog: Catalog, path: string): Promise<string> {
    const created = expectOk(
      await t.http
        .post(`${t.core}/webhooks`)
        .set(owner.headers)
        .send({
          url: receiver.url(path),
          events: ['stock.low', 'item.sold_out'],
          business_uuid: catalog.business.uuid,
        }),
      201,
    );
    return created.secret as string;
  }

  const ordered = (catalog: Catalog, quantity: number) =>
    orderBody(catalog, {
      amount: 10 * quantity,
      cart_items: [cartLine(catalog.items[0], quantity)],
    });

  it('sends each crossing of low_at and of 0 once, from orders, returns and adjustments alike', async () => {
    const catalog = await newCatalog(t, owner, {
      items: [{ extra_data: { stock: { mode: 'count', quantity: 4, low_at: 2 } } }],
    });
    const secret = await endpointFor(catalog, '/stock');
    await placeOrder(t, ordered(catalog, 1)); // 3 left: nothing
    await placeOrder(t, ordered(catalog, 1)); // 2 left: low
    const both = await placeOrder(t, ordered(catalog, 2)); // 0 left: sold out (low already)
    expectError(await placeOrderRequest(t, ordered(catalog, 1)), 422, 'UNPROCESSABLE'); // nothing
    expectOk(await updateOrderRequest(t, owner.headers, both.uuid, { status: 'rejected' })); // 2 left
    await placeOrder(t, ordered(catalog, 2)); // 0 again: sold out, a new crossing
    const adjust = (body: Record<string, unknown>) =>
      t.http
        .post(`${t.core}/businesses/${catalog.business.uuid}/stock/${catalog.items[0].uuid}/adjust`)
        .set(owner.headers)
        .send(body);
    expectOk(await adjust({ delta: 5, reason: 'restock' })); // 5 left
    expectOk(await adjust({ delta: -3, reason: 'waste' })); // 2 left: low
    await deliverAll();

    const events = receiver.at('/stock').map((request) => verifyWebhook(secret, request));
    expect(events.map((event: any) => [event.type, event.data.item.remaining])).toEqual([
      ['stock.low', 2],
      ['item.sold_out', 0],
      ['item.sold_out', 0],
      ['stock.low', 2],
    ]);
    expect(events[1].data).toEqual({
      business_uuid: catalog.business.uuid,
      item: {
        item_uuid: catalog.items[0].uuid,
        menu_uuid: catalog.menu.uuid,
        mode: 'count',
        date: null,
        quantity: 4,
        taken: 4,
        remaining: 0,
        low_at: 2,
      },
    });
  });

  it('sends item.sold_out once when 30 simultaneous orders race for the last 5 portions', async () => {
    const catalog = await newCatalog(t, owner, {
      items: [{ extra_data: { stock: { mode: 'daily', quantity: 5 } } }],
    });
    const secret = await endpointFor(catalog, '/race');
    const results = await Promise.all(
      Array.from({ length: 30 }, () => placeOrderRequest(t, ordered(catalog, 1))),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(5);
    await deliverAll();
    const events = receiver.at('/race').map((request) => verifyWebhook(secret, request));
    // low_at 0: falling to 0 crosses both lines at once.
    expect(events.map((event: any) => event.type).sort()).toEqual(['item.sold_out', 'stock.low']);
  });
});
