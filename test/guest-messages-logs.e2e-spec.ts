import request from 'supertest';
import { AppConfig } from '../src/config/config';
import { registerAndLogin } from './support/account';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { FakeWhatsApp } from './support/fake-message-providers';
import { GUEST_PHONE, guestMessagesSetting } from './support/guest-messages';
import {
  guestHeaders,
  orderBody,
  placeOrder,
  placeOrderRequest,
  updateOrderRequest,
} from './support/order';
import { TEST_API_KEY, TestApp } from './support/test-app';

// R106: phone numbers are masked in every log line but their last four digits.
/**
 * The service as its own process, its output captured at debug level, while
 * guests consent, messages are queued, refused by WhatsApp, sent on the next
 * channel by the log transport, and a guest stops them: the guest's number
 * never appears in what it logged, but masked.
 */
describe('guest phone numbers never reach the log unmasked', () => {
  let db: TestDatabase;
  let child: ChildService;
  let whatsapp: FakeWhatsApp;
  let t: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    whatsapp = await new FakeWhatsApp().start();
    whatsapp.mode = 'undeliverable';
    child = await startChildService({
      ...db.env,
      ...whatsapp.env(),
      LOG_LEVEL: 'debug',
      TRUST_PROXY: 'loopback',
      OUTBOX_POLL_INTERVAL_MS: '200',
    });
    await child.ready();
    t = {
      http: request(child.baseUrl),
      baseUrl: child.baseUrl,
      core: '/public/api/v1/svc',
      orders: '/plugins/svc/svc-init',
      files: '/api/v1/svc/file-manager',
      config: { namespace: 'svc', apiKeys: [TEST_API_KEY] } as AppConfig,
    } as TestApp;
  });
  afterAll(async () => {
    await child?.kill('SIGKILL');
    await whatsapp?.stop();
    await db?.drop();
  });

  it('masks the number in the log transport, the provider’s refusal, the stop and the access log', async () => {
    const owner = await registerAndLogin(t);
    const catalog = await newCatalog(t, owner, {
      business: { extra_data: { guest_messages: guestMessagesSetting() } },
    });
    // A national number the service reads as E.164, and one it refuses.
    const order = await placeOrder(
      t,
      orderBody(catalog, {
        customer_phone_number: '0803 123 4567',
        message_consent: { channel: 'whatsapp' },
      }),
    );
    expect(order.customer_phone_number).toBe(GUEST_PHONE);
    const refused = await placeOrderRequest(
      t,
      orderBody(catalog, {
        customer_phone_number: '+2348000000000',
        message_consent: { channel: 'sms' },
      }),
    );
    expect(refused.status).toBe(422);
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));

    // WhatsApp refuses the number; the SMS goes to the log transport.
    const logPath = `${t.core}/businesses/${catalog.business.uuid}/messages`;
    const deadline = Date.now() + 15_000;
    let rows: Array<{ channel: string; status: string }> = [];
    while (Date.now() < deadline) {
      rows = expectOk(await t.http.get(logPath).set(owner.headers));
      if (rows.some((row) => row.channel === 'sms' && row.status === 'sent')) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(rows.map((row) => [row.channel, row.status]).sort()).toEqual([
      ['sms', 'sent'],
      ['whatsapp', 'failed'],
    ]);
    expect(whatsapp.calls).toHaveLength(1);

    expectOk(
      await t.http
        .post(`${t.orders}/order/${order.uuid}/messages/stop`)
        .set({ ...guestHeaders(t), 'x-order-token': order.order_token }),
    );

    await child.kill('SIGTERM');
    const log = child.output();
    const masked = `+${'*'.repeat(GUEST_PHONE.length - 5)}4567`;
    expect(log).toContain('Guest message (log transport, sms) to ' + masked);
    expect(log).toContain('failed for good');
    expect(log).toContain('stopped for business');
    expect(log).toContain('token=[redacted]');
    // Neither the number's E.164 digits nor its national form, anywhere.
    for (const form of [GUEST_PHONE.slice(1), '8031234567', '0803 123 4567', '2348000000000']) {
      expect(log).not.toContain(form);
    }
    expect(log).not.toContain(order.order_token);
  });
});
