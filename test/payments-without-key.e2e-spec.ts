import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { placeOrder, updateOrderRequest } from './support/order';
import { cardBody, cardCatalog } from './support/paystack-orders';
import { startTestApp, TestApp } from './support/test-app';

describe('payments without a Paystack key', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  it('keeps paystack orders offline, as the owner’s to mark paid, and the webhook path 404', async () => {
    const catalog = await cardCatalog(t, owner);
    const order = await placeOrder(t, cardBody(catalog));
    expect(order.payment).toMatchObject({
      provider: 'paystack',
      collect: 'offline',
      status: 'unpaid',
      reference: null,
      authorization_url: null,
      error: null,
    });
    const paid = expectOk(
      await updateOrderRequest(t, owner.headers, order.uuid, { payment_status: 'paid' }),
    );
    expect(paid.payment_status).toBe('paid');
    const res = await t.http
      .post(`${t.orders}/payment/paystack/webhook`)
      .set('content-type', 'application/json')
      .set('x-paystack-signature', 'ab'.repeat(64))
      .send({ event: 'charge.success', data: {} });
    expectError(res, 404, 'NOT_FOUND');
  });
});
