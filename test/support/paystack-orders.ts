import { OrderTokens } from '../../src/order/domain/order-token';
import { CardPayments, chargeSuccess, startCardPayments } from './card-payments';
import { Catalog, newCatalog } from './entity';
import { TestUser } from './factory';
import { cartLine, guestHeaders, orderBody, placeOrder } from './order';
import { TEST_JWT_SECRET, TestApp } from './test-app';

export const tokens = new OrderTokens(TEST_JWT_SECRET);

export const BANK = {
  title: 'Bank transfer',
  description: 'Use the order reference as the narration',
  account_name: 'Test Kitchen Ltd',
  account_number: '0123456789',
  bank_name: 'Test Bank',
};

/** A menu in `ticker` taking cards through a Paystack subaccount, and bank transfers. */
export function cardCatalogOptions(ticker = 'Nigerian Naira (NGN)') {
  return {
    business: { extra_data: { paystack_subaccount_code: 'ACCT_kitchen01' } },
    menu: {
      extra_data: {
        menu_base_wallet_ticker: ticker,
        menu_checkout_payments_providers: { paystack: { title: 'Card' }, bank_transfer: BANK },
      },
    },
    items: [{ extra_data: { unit_price_amount: '1166.67' } }],
  };
}

export function cardCatalog(t: TestApp, owner: TestUser, ticker?: string) {
  return newCatalog(t, owner, cardCatalogOptions(ticker));
}

/**
 * Card payments on the menu of cardCatalogOptions, with a Paystack timeout
 * short enough for a stalling Paystack and callbacks to https://shop.example.
 */
export function startPaystackOrders(): Promise<CardPayments> {
  return startCardPayments({
    env: { PAYSTACK_TIMEOUT_MS: '300', PAYMENT_CALLBACK_ORIGINS: 'https://shop.example' },
    catalog: cardCatalogOptions(),
  });
}

/** Three of an item at 1,166.67: 3,500.01, or 350001 in minor units. */
export function cardBody(catalog: Catalog, overrides: Record<string, unknown> = {}) {
  return orderBody(catalog, {
    payment_processor: 'paystack',
    amount: '3500.01',
    cart_items: [cartLine(catalog.items[0], 3)],
    callback_url: 'https://shop.example/order/done',
    ...overrides,
  });
}

/**
 * Reads of an order's payment rows, and the payment routes, on the card
 * payments `card()` returns once they are started.
 */
export function paystackOrders(card: () => CardPayments) {
  const app = () => card().t;

  async function stored(uuid: string) {
    const [row] = await app().dataSource.query(
      `SELECT payment_status, payment_state, amount_paid, amount_refunded,
              (SELECT json_agg(json_build_object('status', p.status, 'amount_paid', p.amount_paid::text,
                 'reference', p.reference) ORDER BY p.created_at, p.uuid)
                 FROM payments p WHERE p.order_uuid = $1) AS payments,
              (SELECT count(*)::int FROM payment_refunds WHERE order_uuid = $1) AS refunds,
              (SELECT count(*)::int FROM order_events WHERE order_uuid = $1) AS events,
              (SELECT count(*)::int FROM notifications WHERE data->>'order_uuid' = $1::text) AS notifications
       FROM orders WHERE uuid = $1`,
      [uuid],
    );
    return row;
  }

  async function paidTransitions(uuid: string): Promise<number> {
    const [row] = await app().dataSource.query(
      `SELECT count(*)::int AS n FROM order_events WHERE order_uuid = $1 AND field = 'payment' AND to_value = 'paid'`,
      [uuid],
    );
    return row.n;
  }

  async function paymentNotifications(uuid: string): Promise<number> {
    const [row] = await app().dataSource.query(
      `SELECT count(*)::int AS n FROM notifications WHERE kind = 'order.payment_changed' AND data->>'order_uuid' = $1::text`,
      [uuid],
    );
    return row.n;
  }

  /** The guest's retry of the checkout, with the order's token unless told otherwise. */
  function retry(uuid: string, token = tokens.tokenFor(uuid)) {
    const t = app();
    return t.http
      .post(`${t.orders}/order/${uuid}/payment`)
      .set({ ...guestHeaders(t), 'x-order-token': token });
  }

  function verify(uuid: string, headers: Record<string, string>) {
    const t = app();
    return t.http.post(`${t.orders}/order/${uuid}/payment/verify`).set(headers);
  }

  /** A card order of the catalog, paid by a charge.success webhook. */
  async function paidOrder() {
    const { t, fake, catalog, webhookUrl } = card();
    const order = await placeOrder(t, cardBody(catalog));
    const res = await fake.sendWebhook(webhookUrl, chargeSuccess(fake, order.payment.reference));
    expect(res.status).toBe(200);
    return order;
  }

  /** The owner's (or `user`'s) refund of the order. */
  function refund(uuid: string, body: Record<string, unknown>, user: TestUser = card().owner) {
    const t = app();
    return t.http.post(`${t.orders}/admin/order/refund/${uuid}`).set(user.headers).send(body);
  }

  return { stored, paidTransitions, paymentNotifications, retry, verify, paidOrder, refund };
}
