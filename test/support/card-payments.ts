import { TestDatabase } from './database';
import { Catalog, EntityOverrides, newCatalog } from './entity';
import { createUser, TestUser } from './factory';
import { FakePaystack } from './fake-paystack';
import { guestHeaders, randomIp } from './order';
import { startTestApp, TestApp } from './test-app';

/** The service taking card payments through a fake Paystack, and a menu that offers them. */
export interface CardPayments {
  fake: FakePaystack;
  t: TestApp;
  owner: TestUser;
  /** A business, a menu in NGN offering paystack ("Card"), and its items. */
  catalog: Catalog;
  /** Where Paystack sends its webhooks on this app. */
  webhookUrl: string;
  /** Stops the app (dropping its database), then the fake Paystack. */
  close(): Promise<void>;
}

export interface CardPaymentsOptions {
  /** Settings beside PAYSTACK_SECRET_KEY and PAYSTACK_BASE_URL (PAYSTACK_TIMEOUT_MS, limits, …). */
  env?: Record<string, string>;
  /** For newCatalog; the menu's extra_data is merged over the NGN and paystack defaults. */
  catalog?: { business?: EntityOverrides; menu?: EntityOverrides; items?: EntityOverrides[] };
  /** A database shared with another app (the caller drops it); a fresh one otherwise. */
  database?: TestDatabase;
}

/**
 * A FakePaystack, the test app pointed at it, an owner and a catalog whose
 * menu takes cards in NGN. Whatever was started is closed again when a step fails.
 */
export async function startCardPayments(options: CardPaymentsOptions = {}): Promise<CardPayments> {
  const fake = await FakePaystack.start();
  let t: TestApp | undefined;
  try {
    t = await startTestApp(
      {
        PAYSTACK_SECRET_KEY: fake.secretKey,
        PAYSTACK_BASE_URL: fake.url,
        ...options.env,
      },
      { database: options.database },
    );
    const owner = await createUser(t);
    const { menu, ...rest } = options.catalog ?? {};
    const catalog = await newCatalog(t, owner, {
      ...rest,
      menu: {
        ...menu,
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: { paystack: { title: 'Card' } },
          ...menu?.extra_data,
        },
      },
    });
    const app = t;
    return {
      fake,
      t,
      owner,
      catalog,
      webhookUrl: `${t.baseUrl}${t.orders}/payment/paystack/webhook`,
      async close() {
        await app.close();
        await fake.close();
      },
    };
  } catch (error) {
    await t?.close();
    await fake.close();
    throw error;
  }
}

/** A signed-webhook body: the transaction of `reference` paid at the fake Paystack. */
export function chargeSuccess(fake: FakePaystack, reference: string) {
  return { event: 'charge.success', data: fake.chargeData(fake.pay(reference)) };
}

/** The headers of the guest holding `order`'s token, from `ip` (a random address by default). */
export function asGuest(
  t: TestApp,
  order: { order_token: string },
  ip = randomIp(),
): Record<string, string> {
  return { ...guestHeaders(t, ip), 'x-order-token': order.order_token };
}
