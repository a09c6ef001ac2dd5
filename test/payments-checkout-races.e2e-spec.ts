import { CardPayments, chargeSuccess } from './support/card-payments';
import { Catalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { FakePaystack } from './support/fake-paystack';
import { guestHeaders, placeOrder, placeOrderRequest } from './support/order';
import { cardBody, paystackOrders, startPaystackOrders, tokens } from './support/paystack-orders';
import { TestApp } from './support/test-app';

// R31: paystack; a checkout racing its webhook, parallel deliveries and retries.
describe('payments through Paystack: races and retries', () => {
  let fake: FakePaystack;
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;
  let webhookUrl: string;
  let card: CardPayments;

  beforeAll(async () => {
    card = await startPaystackOrders();
    ({ fake, t, owner, catalog, webhookUrl } = card);
  });
  afterAll(() => card?.close());
  beforeEach(() => {
    fake.mode = 'ok';
  });

  const { stored, paidTransitions, paymentNotifications, retry, verify, paidOrder, refund } =
    paystackOrders(() => card);

  describe('checkout and webhook at once', () => {
    it('answers a replay with the same payment block and opens no second checkout', async () => {
      const body = cardBody(catalog);
      const headers = { ...guestHeaders(t), 'Idempotency-Key': `card-replay-${Date.now()}` };
      const first = expectOk(await placeOrderRequest(t, body, headers), 201);
      const calls = fake.initialized.length;
      const res = await placeOrderRequest(t, body, headers);
      const replay = expectOk(res, 201);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(replay.uuid).toBe(first.uuid);
      expect(replay.payment).toEqual(first.payment);
      expect(replay.history).toEqual(first.history);
      expect(fake.initialized).toHaveLength(calls);
    });

    it('keeps a payment the webhook settled before the checkout’s answer came back as paid', async () => {
      // Paystack reports the charge before it answers the checkout call: the
      // order has committed, its checkout is not written yet.
      fake.onInitialized = async (reference) => {
        const res = await fake.sendWebhook(webhookUrl, chargeSuccess(fake, reference));
        expect(res.status).toBe(200);
      };
      try {
        const order = await placeOrder(t, cardBody(catalog));
        expect(order.payment).toMatchObject({
          status: 'paid',
          amount_paid: '3500.01',
          authorization_url: null,
        });
        expect(order.payment_status).toBe('paid');
        expect(await paidTransitions(order.uuid)).toBe(1);
        expect((await stored(order.uuid)).payments).toEqual([
          expect.objectContaining({ status: 'paid', reference: `${order.order_reference}-1` }),
        ]);
      } finally {
        fake.onInitialized = null;
      }
    });

    it('makes exactly one paid transition from ten parallel deliveries and a verify call', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const event = chargeSuccess(fake, order.payment.reference);
      const results = await Promise.all([
        ...Array.from({ length: 10 }, () => fake.sendWebhook(webhookUrl, event)),
        verify(order.uuid, { ...guestHeaders(t), 'x-order-token': tokens.tokenFor(order.uuid) }),
      ]);
      for (const res of results.slice(0, 10)) expect(res.status).toBe(200);
      expect(results[10].status).toBe(200);
      expect(await paidTransitions(order.uuid)).toBe(1);
      expect(await paymentNotifications(order.uuid)).toBe(1);
      expect((await stored(order.uuid)).payment_status).toBe('paid');
      // The event is recorded once: the verify answer is the same charge.
      const [events] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM payment_events WHERE order_uuid = $1`,
        [order.uuid],
      );
      expect(events.n).toBe(1);
    });
  });

  describe('Paystack down or stalling', () => {
    it.each(['error', 'refuse', 'stall'] as const)(
      'keeps the order (%s) with payment.error; the retry opens a checkout with a new reference',
      async (mode) => {
        fake.mode = mode;
        const order = await placeOrder(t, cardBody(catalog));
        expect(order.status).toBe('pending');
        expect(order.payment).toMatchObject({
          status: 'unpaid',
          authorization_url: null,
          error: expect.stringMatching(/Paystack/),
        });
        // The answer is the order as its guest reads it, the error included.
        const { order_token: token, owner_note: _note, ...answered } = order;
        const read = await t.http
          .get(`${t.orders}/order/${order.uuid}`)
          .set({ ...guestHeaders(t), 'x-order-token': token });
        expect(answered).toEqual(expectOk(read, 200));
        fake.mode = 'ok';
        const retried = expectOk(await retry(order.uuid));
        expect(retried.payment).toMatchObject({
          status: 'pending',
          authorization_url: expect.any(String),
          reference: `${order.order_reference}-2`,
          error: null,
        });
        expect(fake.initialized.at(-1).reference).toBe(`${order.order_reference}-2`);
        // The new checkout replaces the one that was never opened.
        expect((await stored(order.uuid)).payments).toEqual([
          expect.objectContaining({ status: 'abandoned', reference: `${order.order_reference}-1` }),
          expect.objectContaining({ status: 'pending', reference: `${order.order_reference}-2` }),
        ]);
      },
    );

    it('refuses the retry with a wrong token (404), for a paid order (409), for cash (422)', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const calls = fake.initialized.length;
      expectError(await retry(order.uuid, 'not-the-token'), 404, 'NOT_FOUND');
      expectError(await retry(order.uuid, tokens.tokenFor(catalog.menu.uuid)), 404, 'NOT_FOUND');
      const cash = await placeOrder(t, cardBody(catalog, { payment_processor: 'cash' }));
      expectError(await retry(cash.uuid), 422, 'UNPROCESSABLE');
      await fake.sendWebhook(webhookUrl, chargeSuccess(fake, order.payment.reference));
      expectError(await retry(order.uuid), 409, 'CONFLICT');
      expect(fake.initialized.length).toBe(calls);
    });
  });

  it('records a failed charge reported by verify; the guest can then open a new checkout', async () => {
    const order = await placeOrder(t, cardBody(catalog));
    fake.pay(order.payment.reference, { status: 'failed', paid_at: null });
    const guest = { ...guestHeaders(t), 'x-order-token': tokens.tokenFor(order.uuid) };
    const failed = expectOk(await verify(order.uuid, guest));
    expect(failed.payment).toMatchObject({ status: 'failed', error: expect.any(String) });
    expect(failed.payment_status).toBe('unpaid');
    expect(await paymentNotifications(order.uuid)).toBe(1);
    const retried = expectOk(await retry(order.uuid));
    expect(retried.payment).toMatchObject({
      status: 'pending',
      reference: `${order.order_reference}-2`,
    });
  });

  describe('refunds', () => {
    it('refuses a refund while another refund of the order is being made with 409', async () => {
      const order = await paidOrder();
      // A refund whose provider call has not come back yet.
      await t.dataSource.query(
        `INSERT INTO payment_refunds (order_uuid, payment_uuid, provider, amount, status, requested_by)
         SELECT $1, uuid, 'paystack', 100, 'pending', $2 FROM payments
          WHERE order_uuid = $1 AND status = 'paid'`,
        [order.uuid, owner.uuid],
      );
      const before = await stored(order.uuid);
      const calls = fake.refunds.length;
      expectError(await refund(order.uuid, { amount: '1.00' }), 409, 'CONFLICT');
      expect(await stored(order.uuid)).toEqual(before);
      expect(fake.refunds.length).toBe(calls);
    });
  });
});
