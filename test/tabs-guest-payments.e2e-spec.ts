import { CardPayments, chargeSuccess, startCardPayments } from './support/card-payments';
import { expectError, expectOk } from './support/expect';
import { guestHeaders, orderBody, placeOrderRequest } from './support/order';

// R113: a tab closes by itself when what is paid reaches its total.
// R114: one share is paid once, however many pay it at once.
/**
 * The party pays its shares from the tab page through Paystack's Charge API
 * (a small real HTTP server speaking Paystack's bodies): two guests paying
 * one share at once call Paystack once; the webhook pays the share, with its
 * tip, and the last share closes the tab.
 */
describe('tabs: the party pays its shares', () => {
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      catalog: {
        menu: {
          extra_data: { fulfilment: { modes: ['dine_in'], dine_in: { pay_at_end: true } } },
        },
        items: [{ extra_data: { unit_price_amount: '1000.00' } }],
      },
    });
  });
  afterAll(() => card?.close());

  const asParty = (token: string) => ({ ...guestHeaders(card.t), 'x-tab-token': token });

  async function splitTab(table: string) {
    const placed = expectOk(
      await placeOrderRequest(
        card.t,
        orderBody(card.catalog, {
          amount: '2000.00',
          onpremise_data: { customer_onpremise_location: table },
          cart_items: [{ uuid: card.catalog.items[0].uuid, quantity: 2 }],
        }),
      ),
      201,
    );
    const { uuid, tab_token: token } = placed.tab;
    const tab = expectOk(
      await card.t.http
        .post(`${card.t.orders}/tab/${uuid}/split`)
        .set(asParty(token))
        .send({ by: 'equal', parts: 2 }),
    );
    return { uuid, token, tab };
  }

  const pay = (tab: string, token: string, share: string, body: object) =>
    card.t.http
      .post(`${card.t.orders}/tab/${tab}/shares/${share}/payments`)
      .set(asParty(token))
      .send(body);

  it('two guests paying one share at once: Paystack is called once, the second is 409', async () => {
    const { uuid, token, tab } = await splitTab('p1');
    const share = tab.shares[0];
    const before = card.fake.charges.length;
    const answers = await Promise.all(
      [1, 2].map(() => pay(uuid, token, share.uuid, { channel: 'ussd', bank: '737' })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    expect(card.fake.charges.length).toBe(before + 1);
    const [row] = await card.t.dataSource.query(
      'SELECT count(*)::int AS n FROM payments WHERE share_uuid = $1',
      [share.uuid],
    );
    expect(row.n).toBe(1);
  });

  it('the webhook pays the share with its tip; the last share closes the tab', async () => {
    const { uuid, token, tab } = await splitTab('p2');
    const [first, second] = tab.shares;
    const payment = expectOk(
      await pay(uuid, token, first.uuid, { channel: 'ussd', bank: '737', tip_amount: '50.00' }),
      201,
    );
    expect(payment).toMatchObject({
      method: 'paystack',
      channel: 'ussd',
      status: 'pending',
      amount: '1000.00',
    });
    expect(payment.next_action.type).toBe('dial');
    // Paystack is asked for the share and the tip.
    expect(card.fake.charges.at(-1)).toMatchObject({ amount: 105000 });
    // A second attempt while the first is open is 409.
    expectError(
      await pay(uuid, token, first.uuid, { channel: 'ussd', bank: '737' }),
      409,
      'CONFLICT',
    );

    const hook = await card.fake.sendWebhook(
      card.webhookUrl,
      chargeSuccess(card.fake, payment.reference),
    );
    expect(hook).toMatchObject({ status: 200, body: { data: { changed: true } } });
    const afterFirst = expectOk(
      await card.t.http.get(`${card.t.orders}/tab/${uuid}`).set(asParty(token)),
    );
    expect(afterFirst).toMatchObject({ status: 'settling', paid: '1000.00', due: '1000.00' });
    expect(afterFirst.shares[0]).toMatchObject({ status: 'paid', tip: '50.00' });
    expectError(
      await pay(uuid, token, first.uuid, { channel: 'ussd', bank: '737' }),
      409,
      'CONFLICT',
    );

    const last = expectOk(
      await pay(uuid, token, second.uuid, { channel: 'ussd', bank: '737' }),
      201,
    );
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, last.reference));
    const closed = expectOk(
      await card.t.http.get(`${card.t.orders}/tab/${uuid}`).set(asParty(token)),
    );
    expect(closed).toMatchObject({ status: 'closed', paid: '2000.00', due: '0.00' });
    expect(closed.rounds[0].payment_status).toBe('paid');
  });

  it('a share being paid is not split away; closing with money due abandons its charge', async () => {
    const { uuid, token, tab } = await splitTab('p4');
    const payment = expectOk(
      await pay(uuid, token, tab.shares[0].uuid, { channel: 'ussd', bank: '737' }),
      201,
    );
    const resplit = await card.t.http
      .post(`${card.t.orders}/tab/${uuid}/split`)
      .set(asParty(token))
      .send({ by: 'equal', parts: 3 });
    expectError(resplit, 409, 'CONFLICT');
    const closed = expectOk(
      await card.t.http
        .post(`${card.t.core}/tabs/${uuid}/close`)
        .set(card.owner.headers)
        .send({ reason: 'The party left' }),
    );
    expect(closed).toMatchObject({ status: 'closed', close_reason: 'The party left' });
    expect(closed.shares[0].payments[0]).toMatchObject({ uuid: payment.uuid, status: 'abandoned' });
  });

  it('a card checkout for a share: its page, one payment open at a time, paid by the webhook', async () => {
    const { uuid, token } = await splitTab('p5');
    const whole = expectOk(
      await card.t.http
        .post(`${card.t.orders}/tab/${uuid}/split`)
        .set(asParty(token))
        .send({ by: 'equal', parts: 1 }),
    );
    const share = whole.shares[0];
    const checkout = expectOk(
      await pay(uuid, token, share.uuid, { method: 'paystack', tip_amount: '10.00' }),
      201,
    );
    expect(checkout).toMatchObject({
      method: 'paystack',
      channel: 'checkout',
      status: 'pending',
      amount: '2000.00',
      next_action: { type: 'checkout', authorization_url: expect.any(String) },
    });
    expectError(
      await pay(uuid, token, share.uuid, { channel: 'ussd', bank: '737' }),
      409,
      'CONFLICT',
    );
    expectError(
      await pay(uuid, token, share.uuid, { channel: 'carrier-pigeon' }),
      400,
      'VALIDATION_FAILED',
    );
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, checkout.reference));
    const closed = expectOk(
      await card.t.http.get(`${card.t.orders}/tab/${uuid}`).set(asParty(token)),
    );
    expect(closed).toMatchObject({ status: 'closed', paid: '2000.00', due: '0.00' });
    expect(closed.shares[0]).toMatchObject({ status: 'paid', tip: '10.00' });
  });

  it('a wrong token is 404 and opens no charge', async () => {
    const { uuid, tab } = await splitTab('p3');
    const before = card.fake.charges.length;
    expectError(
      await pay(uuid, 'x'.repeat(43), tab.shares[0].uuid, { channel: 'ussd', bank: '737' }),
      404,
      'NOT_FOUND',
    );
    expect(card.fake.charges.length).toBe(before);
  });
});
