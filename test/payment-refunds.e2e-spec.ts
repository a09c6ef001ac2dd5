import { CardPayments, chargeSuccess, startCardPayments } from './support/card-payments';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { cartLine, guestHeaders, orderBody, placeOrder, updateOrderRequest } from './support/order';

/**
 * Refunds follow the payments: a refund takes from the paid payments, the
 * one paid last first, each through its own provider and transaction; one
 * refund over several payments is one answer with a refund per payment.
 */
describe('refunds across an order’s payments', () => {
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      catalog: { items: [{ extra_data: { unit_price_amount: '20.00' } }] },
    });
  });
  afterAll(() => card?.close());
  beforeEach(() => {
    card.fake.mode = 'ok';
  });

  const cardOrder = () =>
    placeOrder(
      card.t,
      orderBody(card.catalog, {
        payment_processor: 'paystack',
        amount: '20.00',
        cart_items: [cartLine(card.catalog.items[0], 1)],
      }),
    );
  const refund = (uuid: string, body: Record<string, unknown> = {}) =>
    card.t.http
      .post(`${card.t.orders}/admin/order/refund/${uuid}`)
      .set(card.owner.headers)
      .send(body);
  const retry = (order: { uuid: string; order_token: string }) =>
    card.t.http
      .post(`${card.t.orders}/order/${order.uuid}/payment`)
      .set({ ...guestHeaders(card.t), 'x-order-token': order.order_token });
  const settle = (reference: string, amount?: number) =>
    card.fake.sendWebhook(card.webhookUrl, {
      event: 'charge.success',
      data: card.fake.chargeData(card.fake.pay(reference, amount ? { amount } : {})),
    });

  it('refunds an order paid twice in full: each checkout through its own transaction', async () => {
    const order = await cardOrder();
    const second = expectOk(await retry(order));
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, order.payment.reference));
    await card.fake.sendWebhook(
      card.webhookUrl,
      chargeSuccess(card.fake, second.payment.reference),
    );
    const calls = card.fake.refunds.length;
    const done = expectOk(await refund(order.uuid));
    expect(done.payment).toMatchObject({
      status: 'refunded',
      amount_paid: '40.00',
      amount_refunded: '40.00',
    });
    const made = card.fake.refunds.slice(calls);
    expect(made.map((body) => [body.transaction, body.amount]).sort()).toEqual(
      [
        [order.payment.reference, 2000],
        [second.payment.reference, 2000],
      ].sort(),
    );
    const refunded = done.payments.filter((p: { refunds: unknown[] }) => p.refunds.length);
    expect(refunded).toHaveLength(2);
    for (const payment of refunded) {
      expect(payment.refunds).toEqual([
        expect.objectContaining({ amount: '20.00', status: 'processed' }),
      ]);
    }
  });

  it('takes from the payment paid last first, splitting one refund over two payments', async () => {
    const catalog = await newCatalog(card.t, card.owner, {
      menu: {
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: { paystack: { title: 'Pay' } },
        },
      },
      items: [{ extra_data: { unit_price_amount: '2000.00' } }],
    });
    const order = await placeOrder(
      card.t,
      orderBody(catalog, {
        payment_processor: 'cash',
        amount: '2000.00',
        cart_items: [cartLine(catalog.items[0], 1)],
      }),
    );
    const pay = (body: Record<string, unknown>) =>
      card.t.http
        .post(`${card.t.orders}/order/${order.uuid}/payments`)
        .set({ ...guestHeaders(card.t), 'x-order-token': order.order_token })
        .send(body);
    const first = expectOk(await pay({ channel: 'bank_transfer' }), 201);
    await settle(first.reference, 120000);
    const second = expectOk(await pay({ channel: 'ussd', bank: '737' }), 201);
    expect(second.amount).toBe('800.00');
    await settle(second.reference);
    const calls = card.fake.refunds.length;
    const done = expectOk(await refund(order.uuid, { amount: '1000.00', reason: 'Cold food' }));
    expect(done.payment).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: '1000.00',
    });
    expect(card.fake.refunds.slice(calls).map((body) => [body.transaction, body.amount])).toEqual([
      [second.reference, 80000],
      [first.reference, 20000],
    ]);
    const byReference = Object.fromEntries(
      done.payments.map((p: { reference: string; refunds: Array<{ amount: string }> }) => [
        p.reference,
        p.refunds.map((r) => r.amount),
      ]),
    );
    expect(byReference[first.reference]).toEqual(['200.00']);
    expect(byReference[second.reference]).toEqual(['800.00']);
    expectError(await refund(order.uuid, { amount: '1000.01' }), 422, 'UNPROCESSABLE');
  });

  it('answers the part the provider refused beside the part it made, and 422 when it refused all', async () => {
    const order = await cardOrder();
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, order.payment.reference));
    card.fake.mode = 'refuse';
    expectError(await refund(order.uuid, { amount: '5.00' }), 422, 'UNPROCESSABLE');
    card.fake.mode = 'ok';
    const view = expectOk(
      await card.t.http.get(`${card.t.core}/orders/${order.uuid}`).set(card.owner.headers),
    );
    expect(view.payment).toMatchObject({ status: 'paid', amount_refunded: '0.00' });
    expect(view.payments[0].refunds).toEqual([
      expect.objectContaining({ amount: '5.00', status: 'failed' }),
    ]);
    expect(expectOk(await refund(order.uuid, { amount: '5.00' })).payment.amount_refunded).toBe(
      '5.00',
    );
  });

  it('marks an order that costs nothing paid at placement, with no checkout opened', async () => {
    const free = await newCatalog(card.t, card.owner, {
      menu: {
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: { paystack: { title: 'Card' } },
        },
      },
      items: [{ extra_data: { unit_price_amount: '0.00' } }],
    });
    const opened = card.fake.initialized.length;
    const order = await placeOrder(
      card.t,
      orderBody(free, {
        payment_processor: 'paystack',
        amount: '0.00',
        cart_items: [cartLine(free.items[0], 1)],
      }),
    );
    expect(order).toMatchObject({
      payment_status: 'paid',
      payment: {
        status: 'paid',
        amount_due: '0.00',
        authorization_url: null,
        paid_at: expect.any(String),
      },
      payments: [expect.objectContaining({ status: 'paid', amount: '0.00', channel: 'manual' })],
    });
    expect(card.fake.initialized.length).toBe(opened);
    const cash = await placeOrder(
      card.t,
      orderBody(free, {
        payment_processor: 'cash',
        amount: '0.00',
        cart_items: [cartLine(free.items[0], 2)],
      }),
    );
    expect(cash.payment_status).toBe('paid');
    // Nothing is left to set by hand, nor to refund.
    expectError(
      await updateOrderRequest(card.t, card.owner.headers, cash.uuid, { payment_status: 'paid' }),
      422,
      'UNPROCESSABLE',
    );
    expectError(await refund(cash.uuid), 422, 'UNPROCESSABLE');
  });
});
