import { CardPayments, startCardPayments } from './support/card-payments';
import { expectOk } from './support/expect';
import { guestHeaders, placeOrder, updateOrderRequest } from './support/order';
import { cardBody, cardCatalogOptions } from './support/paystack-orders';

// R31: paystack; the placement's answer once the checkout opened.
describe('payments through Paystack: the card order’s answer', () => {
  // Paystack's answer waits for the owner's acceptance here: a timeout
  // long enough for it whatever the machine's load.
  let card: CardPayments;
  beforeAll(async () => {
    card = await startCardPayments({
      env: { PAYSTACK_TIMEOUT_MS: '20000', PAYMENT_CALLBACK_ORIGINS: 'https://shop.example' },
      catalog: cardCatalogOptions(),
    });
  });
  afterAll(() => card?.close());

  it('is the order as it stands when the owner accepted it while the checkout opened', async () => {
    const { t, fake, owner, catalog } = card;
    fake.onInitialized = async (reference) => {
      const [row] = await t.dataSource.query(
        `SELECT order_uuid FROM payments WHERE reference = $1`,
        [reference],
      );
      expectOk(await updateOrderRequest(t, owner.headers, row.order_uuid, { status: 'accepted' }));
    };
    const {
      order_token: token,
      owner_note: _note,
      ...answered
    } = await placeOrder(t, cardBody(catalog));
    fake.onInitialized = null;
    expect(answered.status).toBe('accepted');
    expect(answered.history.map((entry: { field: string }) => entry.field)).toEqual([
      'status',
      'status',
      'payment',
    ]);
    expect(answered.payment).toMatchObject({ status: 'pending', error: null });
    const read = await t.http
      .get(`${t.orders}/order/${answered.uuid}`)
      .set({ ...guestHeaders(t), 'x-order-token': token });
    expect(answered).toEqual(expectOk(read, 200));
  });
});
