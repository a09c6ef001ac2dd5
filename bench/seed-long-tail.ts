/**
 * P6's long tail: thousands of small storefronts of the bench's owner,
 * inserted straight into the bench database, and each read once.
 */
import { inParallel, REQUEST_TIMEOUT_MS } from './seed';

export const LONG_TAIL_BUSINESSES = 2000;
export const LONG_TAIL_ITEMS = 60;
export const LONG_TAIL_MENU_META_KEY = 'menu';

/** The storefront path of long-tail business `index` (under /public/api/v1/{ns}). */
export function longTailStorefront(ns: string, index: number): string {
  return `/public/api/v1/${ns}/storefront/tail-${index}/menu/${LONG_TAIL_MENU_META_KEY}`;
}

/**
 * P6's data: LONG_TAIL_BUSINESSES businesses of the seeded owner, each with
 * one menu of LONG_TAIL_ITEMS items shaped like the API's, inserted straight
 * into the bench database in three statements (through the API it would take
 * minutes). Triggers are off for this session only: the stored storefronts
 * do not exist yet, and the first read of each builds it.
 */
export async function seedLongTail(databaseUrl: string, ns: string, ownerEmail: string) {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const owner = (await client.query('SELECT uuid FROM users WHERE email = $1', [ownerEmail]))
      .rows[0].uuid as string;
    await client.query(
      `INSERT INTO entities (entity_type, owned_by, meta_key, title_name, description, extra_data)
       SELECT $1, $2, 'tail-' || g, 'Tail business ' || g, 'A business of the long tail.',
              jsonb_build_object('business_address', g || ' Long Road, Lagos',
                'contact_email', 'tail' || g || '@example.test', 'enable_on_portal_listing', true,
                'country_of_registration', 'NG')
         FROM generate_series(0, $3::int - 1) AS g`,
      [`${ns}_business`, owner, LONG_TAIL_BUSINESSES],
    );
    await client.query(
      `INSERT INTO entities (entity_type, owned_by, meta_key, slug, title_name, description,
         parent_entity_type, parent_entity_uuid, extra_data)
       SELECT $1, $2, $3, $3, 'Menu', 'The menu of ' || b.title_name, $4::varchar, b.uuid,
              jsonb_build_object('menu_base_wallet_ticker', 'NGN', 'menu_base_wallet_ticker_symbol', '₦',
                'menu_primary_color', '#aa3300', 'enable_dark_mode', false)
         FROM entities b WHERE b.entity_type = $4::varchar AND b.meta_key LIKE 'tail-%'`,
      [`${ns}_business_menu`, owner, LONG_TAIL_MENU_META_KEY, `${ns}_business`],
    );
    await client.query(
      `INSERT INTO entities (entity_type, owned_by, meta_key, title_name, description,
         parent_entity_type, parent_entity_uuid, extra_data)
       SELECT $1, $2, 'item-' || g, 'Dish number ' || g,
              'House dish ' || g || ': seasonal ingredients, cooked to order, served warm.', $3::varchar, m.uuid,
              jsonb_build_object('tag', CASE WHEN g % 7 = 0 THEN 'popular' ELSE '' END,
                'category', (ARRAY['Starters','Mains','Sides','Desserts','Drinks'])[g % 5 + 1],
                'unit_price_amount', to_char(1 + (g * 7919) % 11900 / 100.0, 'FM999990.00'),
                'minimum_quantity_per_order', 1, 'maximum_quantity_per_order', 5 + g % 20,
                'sort_position', (g * 17) % $4::int)
         FROM entities m CROSS JOIN generate_series(0, $4::int - 1) AS g
        WHERE m.entity_type = $3::varchar AND m.meta_key = $5 AND m.owned_by = $2`,
      [
        `${ns}_business_menu_item`,
        owner,
        `${ns}_business_menu`,
        LONG_TAIL_ITEMS,
        LONG_TAIL_MENU_META_KEY,
      ],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE entities');
  } finally {
    await client.end();
  }
}

/** Reads every long-tail storefront once, so P6 measures reads of stored storefronts. */
export async function primeLongTail(base: string, ns: string, apiKey: string): Promise<void> {
  await inParallel(LONG_TAIL_BUSINESSES, async (index) => {
    const res = await fetch(`${base}${longTailStorefront(ns, index)}`, {
      headers: { 'x-api-key': apiKey },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`priming storefront ${index}: ${res.status}`);
  });
}
