import { Clock } from '../src/common/clock';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { FakeTermii, FakeWhatsApp } from './support/fake-message-providers';
import {
  drainMessages,
  GUEST_PHONE,
  guestMessagesSetting,
  messagingCatalog,
  moveOrder,
  placeConsentedOrder,
  storedMessages,
} from './support/guest-messages';
import {
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const consentRows = async (t: TestApp): Promise<number> =>
  Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM guest_message_consents`))[0].n);

describe('guest messages by WhatsApp and SMS', () => {
  let t: TestApp;
  let whatsapp: FakeWhatsApp;
  let termii: FakeTermii;
  let owner: TestUser;

  beforeAll(async () => {
    whatsapp = await new FakeWhatsApp().start();
    termii = await new FakeTermii().start();
    t = await startTestApp({
      ...whatsapp.env(),
      ...termii.env(),
      WHATSAPP_VERIFY_TOKEN: 'verify-me-0123456789',
      FRONT_URL: 'https://shop.example',
    });
    owner = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
    await whatsapp?.stop();
    await termii?.stop();
  });
  beforeEach(() => {
    whatsapp.calls.length = 0;
    termii.calls.length = 0;
    whatsapp.mode = 'ok';
    termii.mode = 'ok';
  });

  describe('consent on the order', () => {
    // R100: with consent the phone must be a mobile number; refused, nothing is stored.
    it.each([
      ['a toll-free number', '+2348000000000'],
      ['a landline', '+23412345678'],
      ['words', 'call me maybe'],
      ['no number at all', undefined],
    ])('refuses %s with 422 on customer_phone_number and stores nothing', async (_, phone) => {
      const catalog = await messagingCatalog(t, owner);
      const before = await rowCounts(t);
      const consents = await consentRows(t);
      const res = await placeOrderRequest(
        t,
        orderBody(catalog, {
          customer_phone_number: phone,
          message_consent: { channel: 'whatsapp' },
        }),
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('customer_phone_number');
      expect(await rowCounts(t)).toEqual(before);
      expect(await consentRows(t)).toBe(consents);
    });

    it('refuses a channel it does not know with 400 naming it, and stores nothing', async () => {
      const catalog = await messagingCatalog(t, owner);
      const before = await rowCounts(t);
      const res = await placeOrderRequest(
        t,
        orderBody(catalog, {
          customer_phone_number: GUEST_PHONE,
          message_consent: { channel: 'fax' },
        }),
      );
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain('message_consent.channel');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('reads the national form of the business’s country and stores E.164, with the consent’s time', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog, 'sms', '0803 123 4567');
      expect(order.customer_phone_number).toBe(GUEST_PHONE);
      const [consent] = await t.dataSource.query(
        `SELECT channel, phone, consented_at FROM guest_message_consents WHERE order_uuid = $1`,
        [order.uuid],
      );
      expect(consent).toMatchObject({ channel: 'sms', phone: GUEST_PHONE });
      expect(new Date(consent.consented_at).toISOString()).toBe(order.created_at);
    });

    it('keeps the phone as sent when there is no consent', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeOrder(
        t,
        orderBody(catalog, { customer_phone_number: '0803 123 4567' }),
      );
      expect(order.customer_phone_number).toBe('0803 123 4567');
    });
  });

  describe('no consent or no setting, no message', () => {
    it('sends nothing to a guest who did not consent', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeOrder(t, orderBody(catalog, { customer_phone_number: GUEST_PHONE }));
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(0);
      expect(termii.calls).toHaveLength(0);
      expect(await storedMessages(t, order.uuid)).toEqual([]);
    });

    it('sends nothing for a business without guest_messages, or for an event it did not choose', async () => {
      const without = await messagingCatalog(t, owner, null);
      const first = await placeConsentedOrder(t, without);
      await moveOrder(t, owner, first.uuid, 'accepted');
      const onlyReady = await messagingCatalog(
        t,
        owner,
        guestMessagesSetting({ events: ['ready'] }),
      );
      const second = await placeConsentedOrder(t, onlyReady);
      await moveOrder(t, owner, second.uuid, 'accepted');
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(0);
      expect(await storedMessages(t, first.uuid)).toEqual([]);
      expect(await storedMessages(t, second.uuid)).toEqual([]);
    });
  });

  describe('sending', () => {
    // R102: a template message named order_<event>, the link its last body parameter.
    it('sends the accepted template on WhatsApp with the business, reference, ready time and link', async () => {
      const catalog = await newCatalog(t, owner, {
        business: {
          extra_data: {
            guest_messages: guestMessagesSetting(),
            opening_hours: {
              timezone: 'Africa/Lagos',
              weekly: Object.fromEntries(
                ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [
                  day,
                  [['00:00', '24:00']],
                ]),
              ),
            },
          },
        },
      });
      const order = await placeConsentedOrder(t, catalog);
      // In two hours, on the minute; Lagos is UTC+1 all year.
      const ready = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 2 * 3_600_000);
      const lagos = new Date(ready.getTime() + 3_600_000).toISOString().slice(11, 16);
      const res = await updateOrderRequest(t, owner.headers, order.uuid, {
        status: 'accepted',
        estimated_ready_at: ready.toISOString(),
      });
      expectOk(res);
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(1);
      const body = whatsapp.calls[0].body;
      expect(body).toMatchObject({
        messaging_product: 'whatsapp',
        to: GUEST_PHONE.slice(1),
        type: 'template',
        template: { name: 'order_accepted', language: { code: 'en' } },
      });
      const parameters = body.template.components[0].parameters.map(
        (p: { text: string }) => p.text,
      );
      expect(body.template.components[0].type).toBe('body');
      expect(parameters).toEqual([
        catalog.business.title_name,
        order.order_reference,
        lagos,
        `https://shop.example/app/${catalog.business.meta_key}/order/${order.uuid}?token=${order.order_token}`,
      ]);
      const [message] = await storedMessages(t, order.uuid);
      expect(message).toMatchObject({
        event: 'accepted',
        channel: 'whatsapp',
        status: 'sent',
        provider: 'whatsapp',
      });
      expect(message.provider_message_id).toMatch(/^wamid\./);
    });

    it('sends each chosen event once, on the guest’s channel: SMS by Termii on the dnd channel', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog, 'sms');
      await moveOrder(t, owner, order.uuid, 'accepted');
      await moveOrder(t, owner, order.uuid, 'ready');
      await moveOrder(t, owner, order.uuid, 'out_for_delivery');
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(0);
      expect(termii.calls).toHaveLength(3);
      for (const call of termii.calls) {
        expect(call.body).toMatchObject({
          api_key: termii.apiKey,
          to: GUEST_PHONE.slice(1),
          from: 'Kitchen',
          type: 'plain',
          channel: 'dnd',
        });
      }
      // The lane sends up to four of one provider's messages at once: they may arrive in any order.
      const ready = `Your order ${order.order_reference} at ${catalog.business.title_name} is ready.`;
      expect(termii.calls.filter((call) => String(call.body.sms).includes(ready))).toHaveLength(1);
      expect((await storedMessages(t, order.uuid)).map((m) => [m.event, m.status])).toEqual([
        ['accepted', 'sent'],
        ['ready', 'sent'],
        ['out_for_delivery', 'sent'],
      ]);
    });

    it('tells a rejected order’s guest what happens to their money', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog, 'sms');
      await moveOrder(t, owner, order.uuid, 'rejected');
      await drainMessages(t);
      expect(termii.calls[0].body.sms).toContain('Nothing was charged.');
    });

    it('gives one message for an order accepted by two racing requests', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      const answers = await Promise.all([
        updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }),
        updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }),
      ]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 422]);
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(1);
      expect(await storedMessages(t, order.uuid)).toHaveLength(1);
    });
  });

  describe('failures', () => {
    // R103: the number cannot receive WhatsApp: one SMS on the business's next channel.
    it('sends one SMS when WhatsApp says the number cannot receive the message', async () => {
      whatsapp.mode = 'undeliverable';
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(1);
      expect(termii.calls).toHaveLength(1);
      const messages = await storedMessages(t, order.uuid);
      expect(messages.map((m) => [m.channel, m.status, m.fallback])).toEqual([
        ['whatsapp', 'failed', false],
        ['sms', 'sent', true],
      ]);
      expect(messages[0].error).toContain('131026');
    });

    it('tries the next channel once only: an SMS refused for good is the end', async () => {
      whatsapp.mode = 'undeliverable';
      termii.mode = 'undeliverable';
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(1);
      expect(termii.calls).toHaveLength(1);
      expect((await storedMessages(t, order.uuid)).map((m) => m.status)).toEqual([
        'failed',
        'failed',
      ]);
    });

    it('retries a 5xx with back-off, and sends on a later attempt', async () => {
      whatsapp.mode = 'error';
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(1);
      const [waiting] = await storedMessages(t, order.uuid);
      expect(waiting.status).toBe('queued');
      expect(waiting.error).toContain('HTTP 500');
      expect(termii.calls).toHaveLength(0);
      whatsapp.mode = 'ok';
      // The first retry is due after about 30 s.
      t.app.get(Clock).advance(60_000);
      await drainMessages(t);
      expect(whatsapp.calls).toHaveLength(2);
      const [sent] = await storedMessages(t, order.uuid);
      expect(sent.status).toBe('sent');
      expect(sent.error).toBeNull();
    });
  });

  describe('WhatsApp’s status webhook', () => {
    const path = () => `${t.orders}/messages/whatsapp/webhook`;

    async function sentMessage() {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, order.uuid, 'accepted');
      await drainMessages(t);
      const [message] = await storedMessages(t, order.uuid);
      return { order, message };
    }

    function post(body: string, signature: string | undefined) {
      const req = t.http.post(path()).set('content-type', 'application/json');
      return (signature ? req.set('x-hub-signature-256', signature) : req).send(body);
    }

    it('moves sent → delivered → read, never back', async () => {
      const { message } = await sentMessage();
      const id = message.provider_message_id!;
      const delivered = whatsapp.statusBody(id, 'delivered');
      expect(expectOk(await post(delivered, whatsapp.sign(delivered)))).toEqual({ updated: 1 });
      const read = whatsapp.statusBody(id, 'read');
      expectOk(await post(read, whatsapp.sign(read)));
      expectOk(await post(delivered, whatsapp.sign(delivered)));
      expect((await storedMessages(t, message.order_uuid))[0].status).toBe('read');
    });

    it('refuses a bad or missing signature with 401 and changes nothing', async () => {
      const { message } = await sentMessage();
      const body = whatsapp.statusBody(message.provider_message_id!, 'delivered');
      expectError(await post(body, whatsapp.sign(body, 'another-secret')), 401, 'UNAUTHENTICATED');
      expectError(await post(body, undefined), 401, 'UNAUTHENTICATED');
      const tampered = body.replace('delivered', 'read');
      expectError(await post(tampered, whatsapp.sign(body)), 401, 'UNAUTHENTICATED');
      expect((await storedMessages(t, message.order_uuid))[0].status).toBe('sent');
    });

    it('sends one SMS when a sent WhatsApp message fails for good (131026)', async () => {
      const { message } = await sentMessage();
      const failed = whatsapp.statusBody(message.provider_message_id!, 'failed', 131026);
      expectOk(await post(failed, whatsapp.sign(failed)));
      expectOk(await post(failed, whatsapp.sign(failed)));
      await drainMessages(t);
      expect(termii.calls).toHaveLength(1);
      expect(
        (await storedMessages(t, message.order_uuid)).map((m) => [m.channel, m.status]),
      ).toEqual([
        ['whatsapp', 'failed'],
        ['sms', 'sent'],
      ]);
    });

    it('answers the verification handshake with the challenge, and 403 for a wrong token', async () => {
      const ok = await t.http.get(path()).query({
        'hub.mode': 'subscribe',
        'hub.verify_token': 'verify-me-0123456789',
        'hub.challenge': '1158201444',
      });
      expect(ok.status).toBe(200);
      expect(ok.text).toBe('1158201444');
      const wrong = await t.http.get(path()).query({
        'hub.mode': 'subscribe',
        'hub.verify_token': 'guess',
        'hub.challenge': '1158201444',
      });
      expectError(wrong, 403, 'FORBIDDEN');
    });
  });
});
