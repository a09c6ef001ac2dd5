/**
 * Seeds the benchmark's data through the service's own HTTP API, as an owner
 * would: register, log in, one business, a menu of 1000 items and a second
 * menu of 100 items.
 */
import { seedPriced, SeededPricing } from './seed-priced';
import { seedScheduled, SeededSchedule } from './seed-scheduled';
import { SeededZones, seedZones } from './seed-zones';
import { SeededStock, seedStock } from './seed-stock';
import { SeededKitchen, seedKitchen } from './seed-kitchen';
import { seedMenuItems } from './seed-items';
import { SeededTabs, seedTabs } from './seed-tabs';
import { SeededUssd, seedUssd } from './seed-ussd';
import { wanted } from './bench-env';
import { randomBytes } from 'node:crypto';

export const REQUEST_TIMEOUT_MS = 30_000;
const SEED_CONCURRENCY = 8;

export const BUSINESS_META_KEY = 'bench-bistro';
export const BIG_MENU_META_KEY = 'full-menu';
export const SMALL_MENU_META_KEY = 'drinks';
/** P12: the big menu's 1000 items again, in three languages, with allergens on every item. */
export const LANGUAGES_MENU_META_KEY = 'full-menu-languages';
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

/** P12's languages: English by default, French and Yoruba translated on every record. */
const LANGUAGES = { default: 'en', available: ['en', 'fr', 'yo'] };
const OPTION_TRANSLATIONS: Record<string, { fr: string; yo: string }> = {
  size: { fr: 'Taille', yo: 'Ìwọ̀n' },
  regular: { fr: 'Normale', yo: 'Déédéé' },
  large: { fr: 'Grande', yo: 'Nlá' },
  extras: { fr: 'Suppléments', yo: 'Àfikún' },
  cheese: { fr: 'Fromage', yo: 'Wàrà-kàṣì' },
  olives: { fr: 'Olives', yo: 'Ólífì' },
  chili: { fr: 'Piment', yo: 'Ata' },
};
const OPTION_ALLERGENS: Record<string, string[]> = { cheese: ['milk'], olives: ['sulphites'] };
const ITEM_ALLERGENS = [['gluten', 'eggs'], ['milk'], ['fish', 'mustard'], ['nuts', 'sesame']];

const translated = (key: string, field: 'title' | 'title_name') => ({
  fr: { [field]: OPTION_TRANSLATIONS[key].fr },
  yo: { [field]: OPTION_TRANSLATIONS[key].yo },
});

/** OPTION_GROUPS with a translation of every title and the allergens of the options that have them. */
const TRANSLATED_OPTION_GROUPS = OPTION_GROUPS.map((group) => ({
  ...group,
  translations: translated(group.key, 'title'),
  options: group.options.map((option) => ({
    ...option,
    translations: translated(option.key, 'title'),
    ...(OPTION_ALLERGENS[option.key] ? { allergens: OPTION_ALLERGENS[option.key] } : {}),
  })),
}));

/** What P12's items add to the big menu's: translations, allergens and dietary tags. */
function languagesExtra(index: number): Record<string, unknown> {
  return {
    option_groups: TRANSLATED_OPTION_GROUPS,
    allergens: ITEM_ALLERGENS[index % ITEM_ALLERGENS.length],
    may_contain: ['peanuts'],
    dietary: index % 3 === 0 ? ['halal', 'spicy'] : ['halal'],
    translations: {
      fr: {
        title_name: `Plat numéro ${index}`,
        description: `Plat maison ${index} : produits de saison, cuisiné à la commande, servi chaud.`,
      },
      yo: {
        title_name: `Oúnjẹ nọ́mbà ${index}`,
        description: `Oúnjẹ ilé ${index}: èròjà àsìkò, a sè é nígbà tí o bá béèrè, a gbé e kalẹ̀ ní gbígbóná.`,
      },
    },
  };
}

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
  /** A second business that prices its orders: VAT, a dine-in service charge and a code. */
  priced: SeededPricing;
  /** A third business whose menu takes orders for later in capped slots. */
  scheduled: SeededSchedule;
  /** A fourth business: a menu with 50 delivery zones of 500 points, and one without zones. */
  zones: SeededZones;
  /** A fifth business: stocked items, the same items without stock, and one hot stocked item. */
  stock: SeededStock;
  /** P9: a business with three kitchen stations and one without a kitchen setting. */
  kitchen: SeededKitchen;
  /** P12's menu in three languages (seeded only when P12 runs). */
  languagesMenuUuid?: string;
  /** P13: a menu whose dine-in tables keep tabs, and an open tab on each table (when P13 runs). */
  tabs?: SeededTabs;
  /** P15: a business taking Paystack, for orders charged by USSD (when P15 runs). */
  ussd?: SeededUssd;
  seconds: number;
}

export interface Api {
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

export async function expectStatus(
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
export async function inParallel(
  count: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

/** A price in "12.50" form, spread over 1.00–120.95. */
export function priceOf(index: number): string {
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

  const newMenu = (metaKey: string, title: string, extra: Record<string, unknown> = {}) =>
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
          ...extra,
        },
      },
      201,
      token,
    );
  const bigMenu = await newMenu(BIG_MENU_META_KEY, 'Full menu');
  const smallMenu = await newMenu(SMALL_MENU_META_KEY, 'Drinks');

  const newItems = (
    menuUuid: string,
    count: number,
    extra?: (index: number) => Record<string, unknown>,
  ) => seedMenuItems(api, token, menuUuid, count, extra);
  await newItems(bigMenu.uuid, BIG_MENU_ITEMS);
  const smallMenuItems = await newItems(smallMenu.uuid, SMALL_MENU_ITEMS);

  let languagesMenuUuid: string | undefined;
  if (wanted('P12')) {
    const languagesMenu = await newMenu(LANGUAGES_MENU_META_KEY, 'Full menu', {
      languages: LANGUAGES,
      translations: {
        fr: { title_name: 'Carte complète', description: 'La carte complète de Bench Bistro.' },
        yo: { title_name: 'Àkójọ oúnjẹ', description: 'Gbogbo oúnjẹ Bench Bistro.' },
      },
    });
    await newItems(languagesMenu.uuid, BIG_MENU_ITEMS, languagesExtra);
    languagesMenuUuid = languagesMenu.uuid;
  }

  const priced = await seedPriced(api, token);
  const scheduled = await seedScheduled(api, token);
  const zones = await seedZones(api, token);
  const stock = await seedStock(api, token);
  const kitchen = await seedKitchen(api, token);
  const tabs = wanted('P13') ? await seedTabs(api, token) : undefined;
  const ussd = wanted('P15') ? await seedUssd(api, token) : undefined;

  return {
    ownerEmail,
    ownerPassword,
    token,
    priced,
    scheduled,
    zones,
    stock,
    kitchen,
    languagesMenuUuid,
    tabs,
    ussd,
    businessUuid: business.uuid,
    bigMenuUuid: bigMenu.uuid,
    smallMenuUuid: smallMenu.uuid,
    smallMenuItems,
    seconds: (performance.now() - started) / 1000,
  };
}
