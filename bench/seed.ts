/**
 * Seeds the benchmark's data through the service's own HTTP API, as an owner
 * would: register, log in, one business, a menu of 1000 items and a second
 * menu of 100 items.
 */
import { randomBytes } from 'node:crypto';

const REQUEST_TIMEOUT_MS = 30_000;
const SEED_CONCURRENCY = 8;

export const BUSINESS_META_KEY = 'bench-bistro';
export const BIG_MENU_META_KEY = 'full-menu';
export const SMALL_MENU_META_KEY = 'drinks';
export const BIG_MENU_ITEMS = 1000;
export const SMALL_MENU_ITEMS = 100;

/**
 * Every seeded item carries these two option groups (a size, one of two, and
 * up to three extras), so the storefront answers them and orders price them.
 */
export const OPTION_GROUPS = [
  {
    key: 'size',
    title: 'Size',
    min_selected: 1,
    max_selected: 1,
    options: [
      { key: 'regular', title: 'Regular', price_delta: '0' },
      { key: 'large', title: 'Large', price_delta: '1.50' },
    ],
  },
  {
    key: 'extras',
    title: 'Extras',
    min_selected: 0,
    max_selected: 3,
    options: [
      { key: 'cheese', title: 'Cheese', price_delta: '0.75' },
      { key: 'olives', title: 'Olives', price_delta: '0.50' },
      { key: 'chili', title: 'Chili', price_delta: '0.25' },
    ],
  },
];

/** The options a bench order line chooses, varied by its place in the cart. */
export function chosenOptions(line: number): Array<{ group: string; option: string }> {
  const chosen = [{ group: 'size', option: line % 2 ? 'large' : 'regular' }];
  chosen.push({ group: 'extras', option: 'cheese' });
  if (line % 3 === 0) chosen.push({ group: 'extras', option: 'olives' });
  return chosen;
}

export interface SeededItem {
  uuid: string;
  unitPrice: string;
  minimum: number;
  maximum: number;
}

export interface Seeded {
  ownerEmail: string;
  ownerPassword: string;
  token: string;
  businessUuid: string;
  bigMenuUuid: string;
  smallMenuUuid: string;
  smallMenuItems: SeededItem[];
  seconds: number;
}

interface Api {
  base: string;
  ns: string;
  apiKey: string;
}

async function call(
  api: Api,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {
    'x-api-key': api.apiKey,
    'content-type': 'application/json',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${api.base}${path}`, {
    method,
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const json: any = await res.json();
  return { status: res.status, json };
}

async function expectStatus(
  api: Api,
  method: string,
  path: string,
  body: unknown,
  status: number,
  token?: string,
): Promise<any> {
  const res = await call(api, method, path, body, token);
  if (res.status !== status) {
    throw new Error(
      `seeding ${method} ${path}: expected ${status}, got ${res.status} ${JSON.stringify(res.json).slice(0, 500)}`,
    );
  }
  return res.json.data;
}

/** Runs `task(0..count-1)` with a few in flight at once. */
async function inParallel(count: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

/** A price in "12.50" form, spread over 1.00–120.95. */
function priceOf(index: number): string {
  const cents = 100 + ((index * 7919) % 11900);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export async function seed(base: string, ns: string, apiKey: string): Promise<Seeded> {
  const started = performance.now();
  const api: Api = { base, ns, apiKey };
  const core = `/public/api/v1/${ns}`;
  const entity = (suffix: string) => `${core}/smart-meta-manager/entity/${ns}_${suffix}`;
  const suffix = randomBytes(4).toString('hex');
  const ownerEmail = `bench-owner-${suffix}@example.test`;
  const ownerPassword = `bench-password-${suffix}`;

  await expectStatus(
    api,
    'POST',
    `${core}/user/register`,
    {
      email: ownerEmail,
      password: ownerPassword,
      password_confirmation: ownerPassword,
      name: 'Bench Owner',
      username: `bench-owner-${suffix}`,
    },
    201,
  );
  const login = await expectStatus(
    api,
    'POST',
    `${core}/user/login`,
    { email: ownerEmail, password: ownerPassword },
    200,
  );
  const token: string = login.access_token;

  const business = await expectStatus(
    api,
    'POST',
    entity('business'),
    {
      meta_key: BUSINESS_META_KEY,
      title_name: 'Bench Bistro',
      description: 'A business seeded for the benchmark.',
      status: 'enabled',
      extra_data: {
        business_address: '1 Benchmark Road, Lagos',
        contact_email: 'hello@bench-bistro.example.test',
        enable_on_portal_listing: true,
        country_of_registration: 'NG',
      },
    },
    201,
    token,
  );

  const newMenu = (metaKey: string, title: string) =>
    expectStatus(
      api,
      'POST',
      entity('business_menu'),
      {
        meta_key: metaKey,
        slug: metaKey,
        title_name: title,
        description: `${title} of Bench Bistro.`,
        status: 'enabled',
        parent_entity_type: `${ns}_business`,
        parent_entity_uuid: business.uuid,
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_base_wallet_ticker_symbol: '₦',
          menu_primary_color: '#aa3300',
          enable_dark_mode: false,
          menu_featured_categories: ['Starters', 'Mains', 'Drinks'],
          menu_checkout_payments_providers: {
            paystack: { title: 'Card', description: 'Pay by card', fee: 1.5, fee_max_amount: 2000 },
            bank_transfer: { title: 'Bank transfer', description: 'Pay to our account' },
          },
          contact_info: {
            email_address: 'orders@bench-bistro.example.test',
            mobile_number: '+2348000000000',
            address: '1 Benchmark Road, Lagos',
            show_contact_info_on_support_page: true,
          },
        },
      },
      201,
      token,
    );
  const bigMenu = await newMenu(BIG_MENU_META_KEY, 'Full menu');
  const smallMenu = await newMenu(SMALL_MENU_META_KEY, 'Drinks');

  const categories = ['Starters', 'Mains', 'Sides', 'Desserts', 'Drinks'];
  const newItems = async (menuUuid: string, count: number): Promise<SeededItem[]> => {
    const items: SeededItem[] = new Array(count);
    await inParallel(count, async (index) => {
      const unitPrice = priceOf(index);
      const minimum = 1;
      const maximum = 5 + (index % 20);
      const created = await expectStatus(
        api,
        'POST',
        entity('business_menu_item'),
        {
          meta_key: `item-${index}`,
          title_name: `Dish number ${index}`,
          description: `House dish ${index}: seasonal ingredients, cooked to order, served warm.`,
          status: 'enabled',
          parent_entity_type: `${ns}_business_menu`,
          parent_entity_uuid: menuUuid,
          extra_data: {
            tag: index % 7 === 0 ? 'popular' : '',
            category: categories[index % categories.length],
            unit_price_amount: unitPrice,
            minimum_quantity_per_order: minimum,
            maximum_quantity_per_order: maximum,
            // A permutation of 0..count-1, so the sort has real work to do.
            sort_position: (index * 617) % count,
            option_groups: OPTION_GROUPS,
          },
        },
        201,
        token,
      );
      items[index] = { uuid: created.uuid, unitPrice, minimum, maximum };
    });
    return items;
  };
  await newItems(bigMenu.uuid, BIG_MENU_ITEMS);
  const smallMenuItems = await newItems(smallMenu.uuid, SMALL_MENU_ITEMS);

  return {
    ownerEmail,
    ownerPassword,
    token,
    businessUuid: business.uuid,
    bigMenuUuid: bigMenu.uuid,
    smallMenuUuid: smallMenu.uuid,
    smallMenuItems,
    seconds: (performance.now() - started) / 1000,
  };
}
