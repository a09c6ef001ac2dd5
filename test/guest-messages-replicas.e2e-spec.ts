import { Clock } from '../src/common/clock';
import { OUTBOX_MAX_ATTEMPTS } from '../src/outbox/outbox-retry';
import { createTestDatabase, TestDatabase } from './support/database';
import { expectOk } from './support/expect';
import { createUser } from './support/factory';
import { FakeTermii, FakeWhatsApp } from './support/fake-message-providers';
import {
  drainMessages,
  guestMessagesSetting,
  messagingCatalog,
  moveOrder,
  placeConsentedOrder,
  storedMessages,
} from './support/guest-messages';
import { updateOrderRequest } from './support/order';
import { serverOnly } from './support/server-only';
import { startTestApp, TestApp } from './support/test-app';

// R102: one message per order and event, whichever process sees it.
describe('guest messages across replicas', () => {
  let db: TestDatabase;
  let whatsapp: FakeWhatsApp;
  let first: TestApp | undefined;
  let second: TestApp | undefined;

  beforeAll(async () => {
    whatsapp = await new FakeWhatsApp().start();
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.drop();
    await whatsapp?.stop();
  });

  serverOnly('an order accepted through two processes at once gives one message', async () => {
    db = await createTestDatabase();
    first = await startTestApp(whatsapp.env(), { database: db });
    second = await startTestApp(whatsapp.env(), { database: db });
    const owner = await createUser(first);
    const catalog = await messagingCatalog(first, owner);
    for (let round = 0; round < 3; round++) {
      const order = await placeConsentedOrder(first, catalog);
      const answers = await Promise.all([
        updateOrderRequest(first, owner.headers, order.uuid, { status: 'accepted' }),
        updateOrderRequest(second, owner.headers, order.uuid, { status: 'accepted' }),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 422]);
      await Promise.all([drainMessages(first), drainMessages(second)]);
      expect(await storedMessages(first, order.uuid)).toHaveLength(1);
    }
    expect(whatsapp.calls).toHaveLength(3);
  });
});

describe('guest messages: the limit under racing orders, and the last retry', () => {
  let t: TestApp;
  let termii: FakeTermii;

  beforeAll(async () => {
    termii = await new FakeTermii().start();
    t = await startTestApp(termii.env());
  });
  afterAll(async () => {
    await t?.close();
    await termii?.stop();
  });

  // R105: the business's count is taken under its lock: racing orders never pass the limit.
  it('sends exactly the monthly limit when orders are accepted in parallel', async () => {
    const owner = await createUser(t);
    const catalog = await messagingCatalog(
      t,
      owner,
      guestMessagesSetting({ channels: ['sms'], monthly_limit: 2 }),
    );
    const orders: Array<{ uuid: string }> = [];
    for (let i = 0; i < 5; i++) orders.push(await placeConsentedOrder(t, catalog, 'sms'));
    await Promise.all(orders.map((order) => moveOrder(t, owner, order.uuid, 'accepted')));
    await drainMessages(t);
    const statuses = (await storedMessages(t))
      .filter((m) => orders.some((order) => order.uuid === m.order_uuid))
      .map((m) => m.status)
      .sort();
    expect(statuses).toEqual(['sent', 'sent', 'skipped_limit', 'skipped_limit', 'skipped_limit']);
    expect(termii.calls).toHaveLength(2);
  });

  // R103: a provider that keeps failing: retried with back-off, then failed, no other channel.
  it('fails a message after the outbox’s last attempt', async () => {
    termii.mode = 'error';
    termii.calls.length = 0;
    const owner = await createUser(t);
    const catalog = await messagingCatalog(t, owner, guestMessagesSetting({ channels: ['sms'] }));
    const order = await placeConsentedOrder(t, catalog, 'sms');
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
    const clock = t.app.get(Clock);
    await drainMessages(t);
    for (let attempt = 1; attempt < OUTBOX_MAX_ATTEMPTS; attempt++) {
      clock.advance(2 * 3_600_000);
      await drainMessages(t);
    }
    expect(termii.calls).toHaveLength(OUTBOX_MAX_ATTEMPTS);
    const [message] = await storedMessages(t, order.uuid);
    expect(message.status).toBe('failed');
    expect(message.error).toContain('HTTP 503');
    termii.mode = 'ok';
  });
});
