import { CardPayments, chargeSuccess, startCardPayments } from './support/card-payments';
import { entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { cartLine, orderBody, placeOrder } from './support/order';

// R61: paystack channels.
/**
 * Card payments of priced orders: Paystack is asked for the order's total
 * (tax and tip included) in minor units, refunds stop at that total, and the
 * menu's paystack entry may name the checkout's channels.
 */
describe('card payments of priced orders', () => {
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({
      env: { PAYMENT_CALLBACK_ORIGINS: 'https://shop.example' },
      catalog: {
        business: {
          extra_data: {
            pricing: { tax: { label: 'VAT', rate_percent: '7.5' }, tips: { enabled: true } },
          },
        },
        menu: {
          extra_data: {
            menu_checkout_payments_providers: {
              paystack: { title: 'Card or transfer', channels: ['card', 'bank_transfer'] },
            },
          },
        },
        items: [{ extra_data: { unit_price_amount: '1000.00' } }],
      },
    });
  });
  afterAll(() => card?.close());

  // 2 × 1000.00 = 2000.00; VAT 7.5 % = 150.00; tip 100.00; total 2250.00
  const body = (overrides: Record<string, unknown> = {}) =>
    orderBody(card.catalog, {
      payment_processor: 'paystack',
      cart_items: [cartLine(card.catalog.items[0], 2)],
      tip_amount: '100.00',
      amount: '2250.00',
      ...overrides,
    });

  it('asks Paystack for the total in minor units with the menu’s channels', async () => {
    const order = await placeOrder(card.t, body());
    expect(order.pricing).toMatchObject({ tax: '150.00', tip: '100.00', total: '2250.00' });
    const transaction = card.fake.transactions.get(order.payment.reference)!;
    expect(transaction.amount).toBe(225000);
    expect(transaction.channels).toEqual(['card', 'bank_transfer']);
  });

  it('sends no channels when the menu names none', async () => {
    const catalog = await newCatalog(card.t, card.owner, {
      menu: { extra_data: { menu_checkout_payments_providers: { paystack: { title: 'Card' } } } },
    });
    const order = await placeOrder(
      card.t,
      orderBody(catalog, { payment_processor: 'paystack', amount: '10.00' }),
    );
    expect(card.fake.transactions.get(order.payment.reference)!.channels).toBeNull();
  });

  it('refunds at most the total', async () => {
    const order = await placeOrder(card.t, body());
    const paid = await card.fake.sendWebhook(
      card.webhookUrl,
      chargeSuccess(card.fake, order.payment.reference),
    );
    expect(paid.status).toBe(200);
    const refund = (amount: string) =>
      card.t.http
        .post(`${card.t.orders}/admin/order/refund/${order.uuid}`)
        .set(card.owner.headers)
        .send({ amount });
    expectError(await refund('2250.01'), 422, 'UNPROCESSABLE');
    const done = expectOk(await refund('2250.00'));
    expect(done.payment.amount_refunded).toBe('2250.00');
  });

  it.each([
    ['an unknown channel', { paystack: { channels: ['card', 'cheque'] } }, 'paystack.channels'],
    ['no channel at all', { paystack: { channels: [] } }, 'paystack.channels'],
    ['channels not a list', { paystack: { channels: 'card' } }, 'paystack.channels'],
    [
      'a bad channel in the array shape',
      [{ provider: 'paystack', channels: ['x'] }],
      '[0].channels',
    ],
  ])('refuses a menu with %s (400 naming the path), storing nothing', async (_n, providers, at) => {
    const count = async () =>
      (await card.t.dataSource.query('SELECT count(*)::int AS n FROM entities'))[0].n;
    const before = await count();
    const res = await card.t.http
      .post(entityPath(card.t, 'business_menu'))
      .set(card.owner.headers)
      .send({
        meta_key: `m-${Math.random().toString(36).slice(2)}`,
        status: 'enabled',
        parent_entity_type: card.catalog.menu.parent_entity_type,
        parent_entity_uuid: card.catalog.business.uuid,
        extra_data: { menu_checkout_payments_providers: providers },
      });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(
      `extra_data.menu_checkout_payments_providers${at.startsWith('[') ? '' : '.'}${at}`,
    );
    expect(await count()).toBe(before);
  });
});
