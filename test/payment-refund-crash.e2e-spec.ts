import request from 'supertest';
import { Clock } from '../src/common/clock';
import { AppConfig } from '../src/config/config';
import { PaymentRefundSettler, STALE_REFUND_AFTER_MS } from '../src/payment/payment-refund-settler';
import { registerAndLogin } from './support/account';
import { chargeSuccess } from './support/card-payments';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { FakePaystack } from './support/fake-paystack';
import { cartLine, orderBody, placeOrder } from './support/order';
import { startTestApp, TEST_API_KEY, TestApp } from './support/test-app';

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/**
 * The service killed (SIGKILL) while Paystack holds two refund calls: one
 * Paystack made, one it never got. The next process finds both pending and,
 * once they are old enough, settles them by asking Paystack, so neither
 * blocks the orders' later refunds.
 */
describe('a refund left pending by a crash', () => {
  let fake: FakePaystack;
  let db: TestDatabase;
  let child: ChildService | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    fake = await FakePaystack.start();
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await child?.kill('SIGKILL');
    await t?.close();
    await db?.drop();
    await fake?.close();
  });

  it('is settled with Paystack after a restart: counted when made, failed when not', async () => {
    const paystackEnv = {
      PAYSTACK_SECRET_KEY: fake.secretKey,
      PAYSTACK_BASE_URL: fake.url,
      PAYSTACK_TIMEOUT_MS: '60000',
    };
    child = await startChildService({ ...db.env, ...paystackEnv, TRUST_PROXY: 'loopback' });
    await child.ready();
    const c = {
      http: request(child.baseUrl),
      baseUrl: child.baseUrl,
      core: '/public/api/v1/svc',
      orders: '/plugins/svc/svc-init',
      config: { namespace: 'svc', apiKeys: [TEST_API_KEY] } as AppConfig,
    } as TestApp;
    const owner = await registerAndLogin(c);
    const catalog = await newCatalog(c, owner, {
      menu: {
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: { paystack: { title: 'Card' } },
        },
      },
      items: [{ extra_data: { unit_price_amount: '1000.00' } }],
    });
    const paid = async () => {
      const order = await placeOrder(
        c,
        orderBody(catalog, {
          payment_processor: 'paystack',
          amount: '1000.00',
          cart_items: [cartLine(catalog.items[0], 1)],
        }),
      );
      const res = await fake.sendWebhook(
        `${child!.baseUrl}${c.orders}/payment/paystack/webhook`,
        chargeSuccess(fake, order.payment.reference),
      );
      expect(res.body.data).toEqual({ changed: true });
      return order;
    };
    const made = await paid();
    const lost = await paid();
    const refund = (app: TestApp, uuid: string, amount: string) =>
      app.http.post(`${app.orders}/admin/order/refund/${uuid}`).set(owner.headers).send({ amount });

    // Paystack makes the first refund and never answers; the second never reaches it.
    fake.refundMode = 'stall';
    const hanging = [
      refund(c, made.uuid, '400.00').then(
        () => undefined,
        () => undefined,
      ),
    ];
    await until(() => fake.refundsMade.length === 1, 'the first refund');
    fake.refundMode = 'lose';
    hanging.push(
      refund(c, lost.uuid, '300.00').then(
        () => undefined,
        () => undefined,
      ),
    );
    await until(() => fake.refunds.length === 2, 'the second refund call');
    expect(await child.kill('SIGKILL')).toBe('SIGKILL');
    await Promise.all(hanging);
    child = undefined;
    fake.refundMode = 'answer';

    t = await startTestApp(paystackEnv, { database: db });
    const app = t;
    const refunds = async (uuid: string) =>
      (await app.dataSource.query(
        `SELECT status, provider_refund_id, amount, error FROM payment_refunds WHERE order_uuid = $1`,
        [uuid],
      )) as Array<{
        status: string;
        provider_refund_id: string | null;
        amount: string;
        error: string | null;
      }>;
    const order = async (uuid: string) =>
      (
        await app.dataSource.query(
          `SELECT payment_state, amount_refunded FROM orders WHERE uuid = $1`,
          [uuid],
        )
      )[0];
    expect(await refunds(made.uuid)).toMatchObject([{ status: 'pending' }]);
    expect(await refunds(lost.uuid)).toMatchObject([{ status: 'pending' }]);

    // While it may still be in flight somewhere, a pending refund blocks the next one.
    const settler = app.app.get(PaymentRefundSettler);
    expect(await settler.settleStale()).toBe(0);
    expectError(await refund(app, made.uuid, '1.00'), 409, 'CONFLICT');
    expect(await order(made.uuid)).toEqual({ payment_state: 'paid', amount_refunded: '0.00' });

    app.app.get(Clock).advance(STALE_REFUND_AFTER_MS + 1000);
    expect(await settler.settleStale()).toBe(2);

    expect(await refunds(made.uuid)).toEqual([
      {
        status: 'succeeded',
        provider_refund_id: String(fake.refundsMade[0].id),
        amount: '400.00',
        error: null,
      },
    ]);
    expect(await order(made.uuid)).toEqual({
      payment_state: 'partially_refunded',
      amount_refunded: '400.00',
    });
    const [lostRefund] = await refunds(lost.uuid);
    expect(lostRefund).toMatchObject({ status: 'failed', provider_refund_id: null });
    expect(lostRefund.error).toMatch(/no such refund/);
    expect(await order(lost.uuid)).toEqual({ payment_state: 'paid', amount_refunded: '0.00' });
    // Settled once: a second pass finds nothing.
    expect(await settler.settleStale()).toBe(0);

    // Neither blocks a later refund any more.
    expect(expectOk(await refund(app, made.uuid, '600.00')).payment).toMatchObject({
      status: 'refunded',
      amount_refunded: '1000.00',
    });
    expect(expectOk(await refund(app, lost.uuid, '300.00')).payment).toMatchObject({
      status: 'partially_refunded',
      amount_refunded: '300.00',
    });
  });
});
