import { asGuest, CardPayments, chargeSuccess, startCardPayments } from './support/card-payments';
import { Catalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { FakePaystack } from './support/fake-paystack';
import { cartLine, orderBody, placeOrder } from './support/order';
import { TestApp } from './support/test-app';

/** An order of 2,000.00 (200000 in minor units), paid by card. */
const AMOUNT = '2000.00';

// R32: refunds.
/** Money is never lost silently: double charges, racing refund events, guest cancels. */
describe('money that must not be lost', () => {
  let fake: FakePaystack;
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;
  let webhookUrl: string;
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      env: { PAYSTACK_TIMEOUT_MS: '3000' },
      catalog: { items: [{ extra_data: { unit_price_amount: '1000.00' } }] },
    });
    ({ fake, t, owner, catalog, webhookUrl } = card);
  });
  afterAll(() => card?.close());
  beforeEach(() => {
    fake.mode = 'ok';
    fake.refundMode = 'answer';
    fake.refundDelayMs = 0;
    fake.onRefundMade = null;
  });

  const cardOrder = () =>
    placeOrder(
      t,
      orderBody(catalog, {
        payment_processor: 'paystack',
        amount: AMOUNT,
        cart_items: [cartLine(catalog.items[0], 2)],
      }),
    );
  const refund = (uuid: string, body: Record<string, unknown>) =>
    t.http.post(`${t.orders}/admin/order/refund/${uuid}`).set(owner.headers).send(body);

  async function stored(uuid: string) {
    const [row] = await t.dataSource.query(
      `SELECT status, payment_status, payment_state, amount_paid, amount_refunded,
              (SELECT count(*)::int FROM order_events WHERE order_uuid = $1) AS events,
              (SELECT count(*)::int FROM notifications WHERE data->>'order_uuid' = $1::text) AS notifications,
              (SELECT count(*)::int FROM payment_refunds WHERE order_uuid = $1) AS refunds
       FROM orders WHERE uuid = $1`,
      [uuid],
    );
    return row;
  }

  async function paymentHistory(uuid: string): Promise<string[]> {
    const rows: Array<{ to_value: string }> = await t.dataSource.query(
      `SELECT to_value FROM order_events WHERE order_uuid = $1 AND field = 'payment' ORDER BY id`,
      [uuid],
    );
    return rows.map((row) => row.to_value);
  }

  async function paidOrder() {
    const order = await cardOrder();
    const res = await fake.sendWebhook(webhookUrl, chargeSuccess(fake, order.payment.reference));
    expect(res.body.data).toEqual({ changed: true });
    return order;
  }

  describe('a second successful charge on another checkout attempt', () => {
    it('is counted: overpaid, both charges in amount_paid, history, owner told; replays change nothing', async () => {
      const order = await cardOrder();
      const retried = expectOk(
        await t.http.post(`${t.orders}/order/${order.uuid}/payment`).set(asGuest(t, order)),
      );
      const first = chargeSuccess(fake, order.payment.reference);
      const second = chargeSuccess(fake, retried.payment.reference);
      expect(first.data.reference).not.toBe(second.data.reference);

      // Both attempts' webhooks, each delivered three times, and verify calls, all at once.
      const results = await Promise.all([
        ...[first, second, first, second, first, second].map((event) =>
          fake.sendWebhook(webhookUrl, event),
        ),
        t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(asGuest(t, order)),
        t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(owner.headers),
      ]);
      expect(results.every((res) => res.status === 200)).toBe(true);

      const row = await stored(order.uuid);
      expect(row).toMatchObject({
        payment_state: 'overpaid',
        payment_status: 'paid',
        amount_paid: '4000.00',
        amount_refunded: '0.00',
      });
      const history = await paymentHistory(order.uuid);
      expect(history.filter((to) => to === 'overpaid')).toHaveLength(1);
      expect(history.filter((to) => to === 'paid')).toHaveLength(1);
      const notes: Array<{ title: string; body: string }> = await t.dataSource.query(
        `SELECT title, body FROM notifications
         WHERE kind = 'order.payment_changed' AND data->>'order_uuid' = $1::text ORDER BY created_at`,
        [order.uuid],
      );
      expect(notes).toHaveLength(2);
      expect(notes.map((note) => note.title).join('\n')).toMatch(/Paid more than the order costs/);
      expect(notes.map((note) => note.body).join('\n')).toMatch(/4000\.00 NGN/);

      const view = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(view.payment).toMatchObject({ status: 'overpaid', amount_paid: '4000.00' });

      // Delivered once more: nothing changes.
      const again = await fake.sendWebhook(webhookUrl, second);
      expect(again.body.data).toEqual({ changed: false });
      expect(await stored(order.uuid)).toEqual(row);

      // A further checkout is still refused: the order is paid.
      expectError(
        await t.http.post(`${t.orders}/order/${order.uuid}/payment`).set(asGuest(t, order)),
        409,
        'CONFLICT',
      );
      expect(await stored(order.uuid)).toEqual(row);
    });

    it('lets the owner refund the difference', async () => {
      const order = await cardOrder();
      const retried = expectOk(
        await t.http.post(`${t.orders}/order/${order.uuid}/payment`).set(asGuest(t, order)),
      );
      await fake.sendWebhook(webhookUrl, chargeSuccess(fake, order.payment.reference));
      await fake.sendWebhook(webhookUrl, chargeSuccess(fake, retried.payment.reference));
      const answer = expectOk(await refund(order.uuid, { amount: AMOUNT, reason: 'Paid twice' }));
      expect(answer.payment).toMatchObject({
        status: 'partially_refunded',
        amount_paid: '4000.00',
        amount_refunded: AMOUNT,
      });
      expect(fake.refunds.at(-1)).toMatchObject({ amount: 200000 });
    });
  });

  describe('a refund.processed webhook that races the refund call', () => {
    it('counts the refund once, and a later refund of the rest is not refused', async () => {
      const order = await paidOrder();
      const deliveries: Array<Promise<{ status: number; body: any }>> = [];
      fake.refundDelayMs = 300;
      fake.onRefundMade = async (made) => {
        // Paystack's event for this very refund, twice, before the call's answer.
        const event = fake.refundProcessed(made);
        deliveries.push(fake.sendWebhook(webhookUrl, event), fake.sendWebhook(webhookUrl, event));
        await Promise.all(deliveries);
      };
      const answer = expectOk(await refund(order.uuid, { amount: '500.00' }));
      expect((await Promise.all(deliveries)).map((res) => res.status)).toEqual([200, 200]);
      expect(answer.payment).toMatchObject({
        status: 'partially_refunded',
        amount_refunded: '500.00',
      });
      const made = fake.refundsMade.at(-1)!;
      const refunds: Array<{ status: string; provider_refund_id: string; amount: string }> =
        await t.dataSource.query(
          `SELECT status, provider_refund_id, amount FROM payment_refunds WHERE order_uuid = $1`,
          [order.uuid],
        );
      expect(refunds).toEqual([
        { status: 'processed', provider_refund_id: String(made.id), amount: '500.00' },
      ]);
      expect(await stored(order.uuid)).toMatchObject({ amount_refunded: '500.00' });

      // The same event once more, after the answer: nothing changes.
      const before = await stored(order.uuid);
      expect((await fake.sendWebhook(webhookUrl, fake.refundProcessed(made))).body.data).toEqual({
        changed: false,
      });
      expect(await stored(order.uuid)).toEqual(before);

      fake.onRefundMade = null;
      const rest = expectOk(await refund(order.uuid, {}));
      expect(rest.payment).toMatchObject({ status: 'refunded', amount_refunded: AMOUNT });
    });

    it('counts the refund once when its event arrives after the answer', async () => {
      const order = await paidOrder();
      expectOk(await refund(order.uuid, { amount: '500.00' }));
      const made = fake.refundsMade.at(-1)!;
      const late = await fake.sendWebhook(webhookUrl, fake.refundProcessed(made));
      expect(late.body.data).toEqual({ changed: false });
      expect(await stored(order.uuid)).toMatchObject({ amount_refunded: '500.00' });
    });
  });

  describe("the guest's cancel", () => {
    it('refuses an order paid online with 422 and changes nothing', async () => {
      const order = await paidOrder();
      const before = await stored(order.uuid);
      const res = await t.http
        .post(`${t.orders}/order/${order.uuid}/cancel`)
        .set(asGuest(t, order))
        .send({ reason: 'changed my mind' });
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0]).toMatchObject({ field: 'payment' });
      expect(await stored(order.uuid)).toEqual(before);
      expect(before).toMatchObject({ status: 'pending', payment_state: 'paid' });
    });

    it('still cancels a pending card order that is not paid', async () => {
      const order = await cardOrder();
      const answer = expectOk(
        await t.http.post(`${t.orders}/order/${order.uuid}/cancel`).set(asGuest(t, order)).send({}),
      );
      expect(answer.status).toBe('cancelled');
    });
  });
});
