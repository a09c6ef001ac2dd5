import { OrderTokens } from '../src/order/domain/order-token';
import { PaymentCheckWorker } from '../src/payment/payment-check.worker';
import { Clock } from '../src/common/clock';
import { CardPayments, startCardPayments } from './support/card-payments';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { FAKE_OTP } from './support/fake-paystack-charges';
import { cartLine, guestHeaders, orderBody, placeOrder, updateOrderRequest } from './support/order';
import { serverOnly } from './support/server-only';
import { startTestApp, TEST_JWT_SECRET } from './support/test-app';

const tokens = new OrderTokens(TEST_JWT_SECRET);

/**
 * Paying from the order page through Paystack's Charge API: a USSD code, a
 * mobile money approval (with an OTP for some wallets), a bank transfer to
 * an account issued for the payment; each confirms itself by webhook or by
 * the service's own check of a charge still pending.
 */
describe('payments from the order page', () => {
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      catalog: { items: [{ extra_data: { unit_price_amount: '1000.00' } }] },
    });
  });
  afterAll(() => card?.close());
  beforeEach(() => {
    card.fake.mode = 'ok';
    card.fake.chargeMode = 'normal';
    card.t.app.get(Clock).reset();
  });

  const { any } = expect;
  const order = (quantity = 2, catalog = card.catalog) =>
    placeOrder(
      card.t,
      orderBody(catalog, {
        payment_processor: 'cash',
        amount: (1000 * quantity).toFixed(2),
        cart_items: [cartLine(catalog.items[0], quantity)],
      }),
    );
  const pay = (uuid: string, body: Record<string, unknown>, token = tokens.tokenFor(uuid)) =>
    card.t.http
      .post(`${card.t.orders}/order/${uuid}/payments`)
      .set({ ...guestHeaders(card.t), 'x-order-token': token })
      .send(body);
  const read = async (uuid: string) =>
    expectOk(await card.t.http.get(`${card.t.core}/orders/${uuid}`).set(card.owner.headers));
  const settle = (reference: string, amount?: number) =>
    card.fake.sendWebhook(card.webhookUrl, {
      event: 'charge.success',
      data: card.fake.chargeData(card.fake.pay(reference, amount ? { amount } : {})),
    });
  const paymentRows = async (uuid: string) =>
    (
      await card.t.dataSource.query(
        `SELECT count(*)::int AS n FROM payments WHERE order_uuid = $1`,
        [uuid],
      )
    )[0].n;

  it('opens a USSD charge for what is left to pay, and its webhook pays the order', async () => {
    const placed = await order();
    const payment = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
    expect(payment).toMatchObject({
      method: 'paystack',
      channel: 'ussd',
      status: 'pending',
      amount: '2000.00',
      amount_paid: '0.00',
      reference: `${placed.order_reference}-2`,
      next_action: {
        type: 'dial',
        code: expect.stringMatching(/^\*737\*/),
        expires_at: any(String),
      },
    });
    expect(card.fake.charges.at(-1)).toMatchObject({
      email: placed.customer_email_address,
      amount: 200000,
      currency: 'NGN',
      reference: payment.reference,
      ussd: { type: '737' },
    });
    expect((await read(placed.uuid)).payment).toMatchObject({
      status: 'pending',
      reference: payment.reference,
    });
    expect((await settle(payment.reference)).status).toBe(200);
    const paid = await read(placed.uuid);
    expect(paid).toMatchObject({
      payment_status: 'paid',
      payment: { status: 'paid', amount_paid: '2000.00' },
    });
    expect(paid.payments.at(-1)).toMatchObject({
      status: 'paid',
      channel: 'ussd',
      amount_paid: '2000.00',
    });
    expect(
      paid.history
        .filter((h: { field: string }) => h.field === 'payment')
        .map((h: { to: string }) => h.to),
    ).toEqual(['pending', 'paid']);
  });

  it('gives the account of a bank transfer; less than due leaves the rest payable, and the rest pays it', async () => {
    const placed = await order();
    const first = expectOk(await pay(placed.uuid, { channel: 'bank_transfer' }), 201);
    expect(first.next_action).toMatchObject({
      type: 'transfer',
      account_number: expect.stringMatching(/^\d{10}$/),
      bank_name: 'Test Bank',
      account_name: 'PAYSTACK CHECKOUT',
      amount: '2000.00',
      expires_at: any(String),
    });
    const asked = Date.parse(card.fake.charges.at(-1).bank_transfer.account_expires_at);
    expect(asked - Date.now()).toBeGreaterThan(29 * 60_000);
    await settle(first.reference, 120000);
    expect(await read(placed.uuid)).toMatchObject({
      payment_status: 'partially_paid',
      payment: { status: 'partially_paid', amount_paid: '1200.00' },
    });
    const rest = expectOk(await pay(placed.uuid, { channel: 'bank_transfer' }), 201);
    expect(rest).toMatchObject({ amount: '800.00', next_action: { amount: '800.00' } });
    await settle(rest.reference);
    expect(await read(placed.uuid)).toMatchObject({
      payment_status: 'paid',
      payment: { amount_paid: '2000.00' },
    });
    expectError(await pay(placed.uuid, { channel: 'bank_transfer' }), 409, 'CONFLICT');
  });

  it('asks for mobile money approval, or an OTP it forwards, in the currency of the wallet', async () => {
    const cedis = await newCatalog(card.t, card.owner, {
      menu: {
        extra_data: {
          menu_base_wallet_ticker: 'GHS',
          menu_checkout_payments_providers: { paystack: { title: 'Mobile money' } },
        },
      },
      items: [{ extra_data: { unit_price_amount: '1000.00' } }],
    });
    const mtn = await order(1, cedis);
    expectOk(
      await pay(mtn.uuid, { channel: 'mobile_money', provider: 'mtn', phone: '+233551234987' }),
      201,
    );
    expect(card.fake.charges.at(-1)).toMatchObject({
      currency: 'GHS',
      mobile_money: { provider: 'mtn', phone: '+233551234987' },
    });
    expect((await read(mtn.uuid)).payments.at(-1).next_action).toMatchObject({
      type: 'approve_on_phone',
    });

    const vod = await order(1, cedis);
    const asked = expectOk(
      await pay(vod.uuid, { channel: 'mobile_money', provider: 'vod', phone: '0201234567' }),
      201,
    );
    expect(asked.next_action).toMatchObject({ type: 'otp' });
    const otp = (code: string, token = tokens.tokenFor(vod.uuid)) =>
      card.t.http
        .post(`${card.t.orders}/order/${vod.uuid}/payments/${asked.uuid}/otp`)
        .set({ ...guestHeaders(card.t), 'x-order-token': token })
        .send({ otp: code });
    expectError(await otp('000000'), 422, 'UNPROCESSABLE');
    expectError(await otp(FAKE_OTP, 'not-the-token'), 404, 'NOT_FOUND');
    const approved = expectOk(await otp(FAKE_OTP));
    expect(approved).toMatchObject({
      status: 'pending',
      next_action: { type: 'approve_on_phone' },
    });
    expectError(await otp(FAKE_OTP), 409, 'CONFLICT');
  });

  it('refuses what cannot be charged, writing nothing and calling nobody', async () => {
    const placed = await order();
    const onlyUssd = await newCatalog(card.t, card.owner, {
      menu: {
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: {
            paystack: { title: 'Card', channels: ['card', 'ussd'] },
          },
        },
      },
      items: [{ extra_data: { unit_price_amount: '1000.00' } }],
    });
    const narrow = await order(1, onlyUssd);
    const calls = card.fake.charges.length;
    for (const [body, field] of [
      [{ channel: 'qr' }, 'channel'],
      [{ channel: 'ussd', bank: '000' }, 'bank'],
      [{ channel: 'ussd' }, 'bank'],
      [{ channel: 'mobile_money', provider: 'mtn' }, 'phone'],
      [{ channel: 'mobile_money', provider: 'orange', phone: '+233551234987' }, 'provider'],
    ] as const) {
      const res = await pay(placed.uuid, body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const wrongCurrency = await pay(placed.uuid, {
      channel: 'mobile_money',
      provider: 'mtn',
      phone: '+233551234987',
    });
    expectError(wrongCurrency, 422, 'UNPROCESSABLE');
    expect(wrongCurrency.body.error.details[0].field).toBe('channel');
    const notOffered = await pay(narrow.uuid, { channel: 'bank_transfer' });
    expectError(notOffered, 422, 'UNPROCESSABLE');
    expect(notOffered.body.error.details[0].field).toBe('channel');
    expectOk(await pay(narrow.uuid, { channel: 'ussd', bank: '919' }), 201);
    expectError(
      await pay(placed.uuid, { channel: 'ussd', bank: '737' }, 'wrong-token'),
      404,
      'NOT_FOUND',
    );
    expect(card.fake.charges.length).toBe(calls + 1);
    expect(await paymentRows(placed.uuid)).toBe(1);
  });

  it('records a charge Paystack refuses as failed, and the order stays payable', async () => {
    const placed = await order();
    card.fake.chargeMode = 'failed';
    const failed = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/failed/i) });
    expect((await read(placed.uuid)).payment.status).toBe('failed');
    card.fake.chargeMode = 'normal';
    expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
    expect((await read(placed.uuid)).payment.status).toBe('pending');
  });

  describe('a charge whose webhook is lost', () => {
    const worker = () => card.t.app.get(PaymentCheckWorker);
    const clock = () => card.t.app.get(Clock);
    const checks = (reference: string) =>
      card.fake.calls.filter(
        (call) => call.method === 'GET' && call.path === `/charge/${reference}`,
      ).length;

    it('is checked with Paystack two minutes after it opened, then every few minutes, and paid once', async () => {
      const placed = await order();
      const payment = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
      await worker().checkDue();
      expect(checks(payment.reference)).toBe(0);
      clock().advance(2 * 60_000 + 1_000);
      await worker().checkDue();
      expect(checks(payment.reference)).toBe(1);
      expect((await read(placed.uuid)).payment.status).toBe('pending');
      await worker().checkDue();
      expect(checks(payment.reference)).toBe(1);
      card.fake.pay(payment.reference);
      clock().advance(3 * 60_000 + 1_000);
      await Promise.all([worker().checkDue(), settle(payment.reference), worker().checkDue()]);
      const paid = await read(placed.uuid);
      expect(paid.payment).toMatchObject({ status: 'paid', amount_paid: '2000.00' });
      expect(paid.history.filter((h: { to: string }) => h.to === 'paid')).toHaveLength(1);
    });

    it('fails when it expires unpaid, and the order can be paid another way', async () => {
      const placed = await order();
      const payment = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
      clock().advance(11 * 60_000);
      await worker().checkDue();
      const expired = await read(placed.uuid);
      expect(expired.payments.at(-1)).toMatchObject({
        uuid: payment.uuid,
        status: 'failed',
        error: any(String),
      });
      expect(expired.payment.status).toBe('failed');
      // The money still counts if it arrives after all.
      await settle(payment.reference);
      expect((await read(placed.uuid)).payment.status).toBe('paid');
    });
  });

  it('pays a charge once however many webhooks and checks race', async () => {
    const placed = await order();
    const payment = expectOk(await pay(placed.uuid, { channel: 'bank_transfer' }), 201);
    card.fake.pay(payment.reference);
    card.t.app.get(Clock).advance(3 * 60_000);
    const event = {
      event: 'charge.success',
      data: card.fake.chargeData(card.fake.transactions.get(payment.reference)!),
    };
    await Promise.all([
      ...Array.from({ length: 10 }, () => card.fake.sendWebhook(card.webhookUrl, event)),
      card.t.app.get(PaymentCheckWorker).checkDue(),
      card.t.http
        .post(`${card.t.orders}/order/${placed.uuid}/payment/verify`)
        .set({ ...guestHeaders(card.t), 'x-order-token': placed.order_token }),
    ]);
    const paid = await read(placed.uuid);
    expect(paid.payment).toMatchObject({ status: 'paid', amount_paid: '2000.00' });
    expect(paid.history.filter((h: { to: string }) => h.to === 'paid')).toHaveLength(1);
    const [events] = await card.t.dataSource.query(
      `SELECT count(*)::int AS n FROM payment_events WHERE payment_uuid = $1`,
      [payment.uuid],
    );
    expect(events.n).toBe(1);
  });

  it('counts two payments of one order paid at once, each once: overpaid', async () => {
    const placed = await order();
    const a = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
    const b = expectOk(await pay(placed.uuid, { channel: 'bank_transfer' }), 201);
    await Promise.all([
      settle(a.reference),
      settle(b.reference),
      settle(a.reference),
      settle(b.reference),
    ]);
    const view = await read(placed.uuid);
    expect(view.payment).toMatchObject({ status: 'overpaid', amount_paid: '4000.00' });
    expect(view.payments.filter((p: { status: string }) => p.status === 'paid')).toHaveLength(2);
  });

  it('counts sales by payment channel in the sales report and the CSV', async () => {
    const business = card.catalog.business.uuid;
    const placed = await order();
    expectOk(
      await updateOrderRequest(card.t, card.owner.headers, placed.uuid, { status: 'accepted' }),
    );
    const payment = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
    await settle(payment.reference);
    const day = new Date().toISOString().slice(0, 10);
    const period = { from: day, to: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) };
    const report = expectOk(
      await card.t.http
        .get(`${card.t.core}/businesses/${business}/reports/sales`)
        .query(period)
        .set(card.owner.headers),
    );
    expect(report.by_payment_channel.ussd).toEqual({ orders: 1, total: '2000.00' });
    expect(report.by_payment_channel.manual).toBeUndefined();
    const csv = await card.t.http
      .get(`${card.t.core}/businesses/${business}/orders.csv`)
      .query(period)
      .set(card.owner.headers)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    const [header, ...rows] = (csv.body as string)
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = header.indexOf('payment_channels');
    expect(column).toBeGreaterThan(header.indexOf('payment_status'));
    expect(rows.find((row) => row[1] === placed.uuid)?.[column]).toBe('ussd');
  });

  serverOnly(
    'asks Paystack about a due charge once across two replicas, and pays it once',
    async () => {
      const replica = await startTestApp(
        { PAYSTACK_SECRET_KEY: card.fake.secretKey, PAYSTACK_BASE_URL: card.fake.url },
        { database: { env: { DATABASE_URL: card.t.config.databaseUrl! }, drop: async () => {} } },
      );
      try {
        const placed = await order();
        const payment = expectOk(await pay(placed.uuid, { channel: 'ussd', bank: '737' }), 201);
        const due = () =>
          card.t.dataSource.query(
            `UPDATE payments SET next_check_at = now() - interval '1 second' WHERE uuid = $1`,
            [payment.uuid],
          );
        const checks = () =>
          card.fake.calls.filter(
            (call) => call.method === 'GET' && call.path === `/charge/${payment.reference}`,
          ).length;
        const workers = [card.t.app.get(PaymentCheckWorker), replica.app.get(PaymentCheckWorker)];
        await due();
        await Promise.all(workers.map((worker) => worker.checkDue()));
        expect(checks()).toBe(1);
        card.fake.pay(payment.reference);
        await due();
        await Promise.all([
          ...workers.map((worker) => worker.checkDue()),
          settle(payment.reference),
        ]);
        expect(checks()).toBe(2);
        const paid = await read(placed.uuid);
        expect(paid.payment).toMatchObject({ status: 'paid', amount_paid: '2000.00' });
        expect(paid.history.filter((h: { to: string }) => h.to === 'paid')).toHaveLength(1);
      } finally {
        await replica.close();
      }
    },
  );
});
