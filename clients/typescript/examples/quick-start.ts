import { randomUUID } from 'node:crypto';
import { createClient } from '../src';

export interface QuickStartOptions {
  /** Where the service answers; default SERVICE_URL or http://localhost:3000. */
  baseUrl?: string;
  /** Default API_KEY or the development key. */
  apiKey?: string;
}

/**
 * An owner signs up, logs in and publishes a business, a menu and an item; a
 * guest reads the storefront and orders; the owner sees the order. Every name
 * carries a random suffix, so it runs on any database, as often as you like.
 */
export async function quickStart(options: QuickStartOptions = {}): Promise<string> {
  const baseUrl = options.baseUrl ?? process.env.SERVICE_URL ?? 'http://localhost:3000';
  const apiKey = options.apiKey ?? process.env.API_KEY ?? 'dev-api-key-change-me';
  const run = randomUUID().slice(0, 8);
  const email = `grace-${run}@example.com`;
  const password = 'correct-horse';

  const guest = createClient({ baseUrl, apiKey });
  const signUp = await guest.POST('/public/api/v1/svc/user/register', {
    body: {
      email,
      password,
      password_confirmation: password,
      name: 'Grace',
      username: `grace-${run}`,
    },
  });
  if (signUp.error) throw new Error(`sign-up: ${signUp.error.message}`);

  const login = await guest.POST('/public/api/v1/svc/user/login', { body: { email, password } });
  if (!login.data) throw new Error(`login: ${login.error.message}`);
  const owner = createClient({ baseUrl, apiKey, accessToken: login.data.data.access_token });

  const entity = '/public/api/v1/svc/smart-meta-manager/entity/{type}' as const;
  const business = await owner.POST(entity, {
    params: { path: { type: 'svc_business' } },
    body: {
      meta_key: `grace-${run}`,
      title_name: 'Grace’s Grill',
      extra_data: { contact_email: email },
    },
  });
  if (!business.data) throw new Error(`business: ${business.error.message}`);
  const menu = await owner.POST(entity, {
    params: { path: { type: 'svc_business_menu' } },
    body: {
      meta_key: 'lunch',
      title_name: 'Lunch',
      parent_entity_uuid: business.data.data.uuid,
      extra_data: { menu_base_wallet_ticker: 'NGN', menu_base_wallet_ticker_symbol: '₦' },
    },
  });
  if (!menu.data) throw new Error(`menu: ${menu.error.message}`);
  const item = await owner.POST(entity, {
    params: { path: { type: 'svc_business_menu_item' } },
    body: {
      title_name: 'Suya',
      parent_entity_uuid: menu.data.data.uuid,
      extra_data: {
        unit_price_amount: '1500.00',
        minimum_quantity_per_order: 1,
        maximum_quantity_per_order: 5,
      },
    },
  });
  if (!item.data) throw new Error(`item: ${item.error.message}`);

  const storefront = await guest.GET(
    '/public/api/v1/svc/storefront/{business_meta_key}/menu/{menu_meta_key}',
    { params: { path: { business_meta_key: `grace-${run}`, menu_meta_key: 'lunch' } } },
  );
  if (!storefront.data) throw new Error(`storefront: ${storefront.error.message}`);

  const order = await guest.POST('/plugins/svc/svc-init/order', {
    params: { header: { 'Idempotency-Key': `quick-start-${run}` } },
    body: {
      menu_uuid: menu.data.data.uuid,
      amount: '3000.00',
      payment_processor: 'cash',
      customer_email_address: `guest-${run}@example.com`,
      cart_items: [{ uuid: item.data.data.uuid, quantity: 2 }],
    },
  });
  if (!order.data) throw new Error(`order: ${order.error.message}`);

  const inbox = await owner.GET('/public/api/v1/svc/orders', {
    params: { query: { page: 1, per_page: 20 } },
  });
  if (!inbox.data) throw new Error(`orders: ${inbox.error.message}`);
  const placed = order.data.data;
  return (
    `${storefront.data.data.business.title_name}: order ${placed.order_reference} ` +
    `(${placed.amount} ${placed.currency}, ${placed.status}); the owner has ` +
    `${inbox.data.meta?.total ?? 0} order(s)`
  );
}

// `npm run example` runs it against SERVICE_URL (default http://localhost:3000).
if (require.main === module) {
  quickStart().then(
    (summary) => process.stdout.write(`${summary}\n`),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
