import { CardPayments, chargeSuccess } from './support/card-payments';
import { Catalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { FakePaystack } from './support/fake-paystack';
import {
  guestHeaders,
  openOrderStream,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import {
  BANK,
  cardBody,
  cardCatalog,
  startPaystackOrders,
  paystackOrders,
} from './support/paystack-orders';
import { TestApp } from './support/test-app';

// R18: card provider name.
// R30: the payment block.
// R31: paystack.
describe('payments through Paystack', () => {
  let fake: FakePaystack;
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let catalog: Catalog;
  let webhookUrl: string;
  let card: CardPayments;

  beforeAll(async () => {
    card = await startPaystackOrders();
    ({ fake, t, owner, catalog, webhookUrl } = card);
    stranger = await createUser(t);
  });
  afterAll(() => card?.close());
  beforeEach(() => {
    fake.mode = 'ok';
  });

  const { stored, paidTransitions, paymentNotifications, verify, paidOrder, refund } =
    paystackOrders(() => card);

  describe('placement', () => {
    it('opens a checkout after the order commits with email, integer amount, currency and reference', async () => {
      const headers = { ...guestHeaders(t), 'Idempotency-Key': `card-${Date.now()}` };
      const calls = fake.initialized.length;
      const res = await placeOrderRequest(t, cardBody(catalog), headers);
      const order = expectOk(res, 201);
      expect(fake.initialized).toHaveLength(calls + 1);
      const sent = fake.initialized.at(-1);
      expect(sent).toMatchObject({
        email: order.customer_email_address,
        amount: 350001,
        currency: 'NGN',
        reference: order.payment.reference,
        subaccount: 'ACCT_kitchen01',
        callback_url: 'https://shop.example/order/done',
        metadata: { order_uuid: order.uuid, reference: order.payment.reference },
      });
      expect(Number.isInteger(sent.amount)).toBe(true);
      expect(fake.calls.at(-1)!.authorization).toBe(`Bearer ${fake.secretKey}`);
      expect(order.currency).toBe('NGN');
      expect(order.payment).toMatchObject({
        provider: 'paystack',
        collect: 'online',
        status: 'pending',
        reference: `${order.order_reference}-1`,
        authorization_url: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\//),
        access_code: expect.any(String),
        currency: 'NGN',
        amount_due: '3500.01',
        amount_paid: '0.00',
        error: null,
      });
      expect(order.payment_status).toBe('unpaid');
      expect(order.history.at(-1)).toMatchObject({
        field: 'payment',
        from: 'unpaid',
        to: 'pending',
        actor: 'system',
      });
      // The answer is the order as its guest reads it once the checkout is open.
      const { order_token: orderToken, owner_note: ownerNote, ...answered } = order;
      expect(ownerNote).toBeNull();
      const read = await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': orderToken });
      expect(answered).toEqual(expectOk(read, 200));

      expect(fake.initialized).toHaveLength(calls + 1);
    });

    it('refuses a callback_url outside the allowed origins with 400 and stores nothing', async () => {
      const before = await rowCounts(t);
      const calls = fake.calls.length;
      const res = await placeOrderRequest(
        t,
        cardBody(catalog, { callback_url: 'https://evil.example/steal' }),
      );
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field).toBe('callback_url');
      expect(await rowCounts(t)).toEqual(before);
      expect(fake.calls.length).toBe(calls);
    });

    it('refuses a card order in a currency Paystack does not take with 422 and stores nothing', async () => {
      const euro = await cardCatalog(t, owner, 'EUR');
      const before = await rowCounts(t);
      const res = await placeOrderRequest(t, cardBody(euro));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('payment_processor');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('gives bank transfer orders the menu’s instructions, collected offline', async () => {
      const order = await placeOrder(
        t,
        cardBody(catalog, { payment_processor: 'bank_transfer', callback_url: undefined }),
      );
      expect(order.payment).toMatchObject({
        provider: 'bank_transfer',
        collect: 'offline',
        status: 'unpaid',
        authorization_url: null,
        instructions: BANK,
      });
    });
  });

  describe('webhook', () => {
    it('refuses a bad, missing or tampered signature with 401 and changes nothing', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const event = chargeSuccess(fake, order.payment.reference);
      const before = await stored(order.uuid);
      for (const options of [
        { signature: 'ab'.repeat(64) },
        { signature: null },
        { signature: 'not-hex' },
        { tamper: (body: string) => body.replace('"charge.success"', '"charge.succesS"') },
        { tamper: (body: string) => body.replace('350001', '350002') },
      ]) {
        const res = await fake.sendWebhook(webhookUrl, event, options);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHENTICATED');
      }
      expect(await stored(order.uuid)).toEqual(before);
    });

    it('marks the order paid on charge.success, with history, notification and stream event', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const stream = await openOrderStream(t, owner.token);
      try {
        const res = await fake.sendWebhook(
          webhookUrl,
          chargeSuccess(fake, order.payment.reference),
        );
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ changed: true });
        const event = await stream.waitFor(
          (e) => e.event === 'order.updated' && e.data.uuid === order.uuid,
        );
        expect(event.data.payment_status).toBe('paid');
      } finally {
        stream.close();
      }
      const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(read.payment_status).toBe('paid');
      expect(read.payment).toMatchObject({
        status: 'paid',
        amount_paid: '3500.01',
        paid_at: expect.any(String),
        reference: order.payment.reference,
      });
      expect(read.history.at(-1)).toMatchObject({
        field: 'payment',
        from: 'pending',
        to: 'paid',
        by: null,
        actor: 'provider',
      });
      expect(await paymentNotifications(order.uuid)).toBe(1);
    });

    it('records a charge in another currency as mismatch: unpaid, nothing counted, owner told', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const transaction = fake.pay(order.payment.reference, { currency: 'GHS' });
      const res = await fake.sendWebhook(webhookUrl, {
        event: 'charge.success',
        data: fake.chargeData(transaction),
      });
      expect(res.status).toBe(200);
      const row = await stored(order.uuid);
      expect(row).toMatchObject({ payment_state: 'mismatch', payment_status: 'unpaid' });
      expect(Number(row.amount_paid)).toBe(0);
      expect(await paymentNotifications(order.uuid)).toBe(1);
      const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(read.payment.error).toMatch(/3500\.01/);
      expect(read.payments[0]).toMatchObject({ status: 'failed', amount_paid: '0.00' });
    });

    it('counts a charge of less than due as it is reported: partially_paid, the rest still due', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const transaction = fake.pay(order.payment.reference, { amount: 150000 });
      expect(
        (
          await fake.sendWebhook(webhookUrl, {
            event: 'charge.success',
            data: fake.chargeData(transaction),
          })
        ).status,
      ).toBe(200);
      const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(read).toMatchObject({
        payment_status: 'partially_paid',
        payment: { status: 'partially_paid', amount_paid: '1500.00', amount_due: '3500.01' },
      });
      expect(read.payments[0]).toMatchObject({
        status: 'paid',
        amount: '3500.01',
        amount_paid: '1500.00',
      });
      expect(await paymentNotifications(order.uuid)).toBe(1);
    });

    it('answers unknown references and event types with 200 and changes nothing', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const before = await stored(order.uuid);
      const data = fake.chargeData(fake.pay(order.payment.reference));
      for (const event of [
        { event: 'charge.success', data: { ...data, reference: 'ZZZZ-ZZZZ-1' } },
        { event: 'charge.success', data: { ...data, reference: `${order.order_reference}-9` } },
        { event: 'transfer.success', data },
        { event: 'subscription.create', data: {} },
      ]) {
        const res = await fake.sendWebhook(webhookUrl, event);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ changed: false });
      }
      expect(await stored(order.uuid)).toEqual(before);
    });
  });

  describe('verify', () => {
    it('applies the provider’s answer for the guest (token) or the owner (Bearer); others refused', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const pending = expectOk(await verify(order.uuid, owner.headers));
      expect(pending.payment.status).toBe('pending');
      expectError(await verify(order.uuid, stranger.headers), 403, 'FORBIDDEN');
      expectError(await verify(order.uuid, guestHeaders(t)), 404, 'NOT_FOUND');
      fake.pay(order.payment.reference);
      const paid = expectOk(await verify(order.uuid, owner.headers));
      expect(paid.payment).toMatchObject({ status: 'paid', amount_paid: '3500.01' });
      expect(await paidTransitions(order.uuid)).toBe(1);
    });
  });

  describe('refunds', () => {
    it('refunds part then the rest through Paystack: partially_refunded, then refunded', async () => {
      const order = await paidOrder();
      const calls = fake.refunds.length;
      const partial = expectOk(await refund(order.uuid, { amount: '1000.00', reason: 'Cold' }));
      expect(partial.payment_status).toBe('partially_refunded');
      expect(partial.payment).toMatchObject({
        status: 'partially_refunded',
        amount_refunded: '1000.00',
      });
      expect(fake.refunds[calls]).toMatchObject({
        transaction: order.payment.reference,
        amount: 100000,
      });
      const rest = expectOk(await refund(order.uuid, {}));
      expect(rest.payment_status).toBe('refunded');
      expect(rest.payment).toMatchObject({ status: 'refunded', amount_refunded: '3500.01' });
      expect(fake.refunds[calls + 1]).toMatchObject({ amount: 250001 });
      expect(rest.history.filter((h: any) => h.field === 'payment').map((h: any) => h.to)).toEqual([
        'pending',
        'paid',
        'partially_refunded',
        'refunded',
      ]);
      // Paystack's confirmation of a refund the service made changes nothing.
      const before = await stored(order.uuid);
      const confirmation = await fake.sendWebhook(webhookUrl, {
        event: 'refund.processed',
        data: {
          status: 'processed',
          transaction_reference: order.payment.reference,
          amount: 250001,
          currency: 'NGN',
        },
      });
      expect(confirmation.body.data).toEqual({ changed: false });
      expect(await stored(order.uuid)).toEqual(before);
    });

    it('adds a refund made on the Paystack dashboard when it is confirmed', async () => {
      const order = await paidOrder();
      const res = await fake.sendWebhook(webhookUrl, {
        event: 'refund.processed',
        data: {
          id: 991,
          status: 'processed',
          transaction_reference: order.payment.reference,
          amount: '50000',
          currency: 'NGN',
        },
      });
      expect(res.body.data).toEqual({ changed: true });
      const row = await stored(order.uuid);
      expect(row).toMatchObject({ payment_state: 'partially_refunded', amount_refunded: '500.00' });
    });

    it('refuses an over-refund, a refund of an unpaid order (422) and another owner (403)', async () => {
      const order = await paidOrder();
      const unpaid = await placeOrder(t, cardBody(catalog));
      const before = await stored(order.uuid);
      const calls = fake.refunds.length;
      const over = await refund(order.uuid, { amount: '3500.02' });
      expectError(over, 422, 'UNPROCESSABLE');
      expect(over.body.error.details[0]).toMatchObject({ field: 'amount', refundable: '3500.01' });
      expectError(await refund(unpaid.uuid, {}), 422, 'UNPROCESSABLE');
      expectError(await refund(order.uuid, { amount: '1.00' }, stranger), 403, 'FORBIDDEN');
      expectError(await refund(order.uuid, { amount: '-1' }), 400, 'VALIDATION_FAILED');
      expect(await stored(order.uuid)).toEqual(before);
      expect(fake.refunds.length).toBe(calls);
      const [refunds] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM payment_refunds WHERE order_uuid IN ($1, $2)`,
        [order.uuid, unpaid.uuid],
      );
      expect(refunds.n).toBe(0);
    });

    it('records an offline refund as the owner says', async () => {
      const cash = await placeOrder(t, cardBody(catalog, { payment_processor: 'cash' }));
      expectOk(await updateOrderRequest(t, owner.headers, cash.uuid, { payment_status: 'paid' }));
      const calls = fake.refunds.length;
      const answer = expectOk(await refund(cash.uuid, { amount: '500.00' }));
      expect(answer.payment).toMatchObject({
        status: 'partially_refunded',
        amount_paid: '3500.01',
        amount_refunded: '500.00',
      });
      expect(fake.refunds.length).toBe(calls);
    });
  });

  describe('owner updates of payment_status', () => {
    it('refuses a manual payment_status for an online card payment with 422', async () => {
      const order = await placeOrder(t, cardBody(catalog));
      const before = await stored(order.uuid);
      const res = await updateOrderRequest(t, owner.headers, order.uuid, {
        payment_status: 'paid',
      });
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('payment_status');
      expect(await stored(order.uuid)).toEqual(before);
    });

    it('allows it for offline collection, in the history as a payment change', async () => {
      const order = await placeOrder(
        t,
        cardBody(catalog, { payment_processor: 'bank_transfer', callback_url: undefined }),
      );
      const paid = expectOk(
        await updateOrderRequest(t, owner.headers, order.uuid, { payment_status: 'paid' }),
      );
      expect(paid.payment).toMatchObject({ status: 'paid', amount_paid: '3500.01' });
      expect(paid.history.at(-1)).toMatchObject({
        field: 'payment',
        from: 'unpaid',
        to: 'paid',
        by: owner.uuid,
        actor: 'owner',
      });
    });
  });
});
