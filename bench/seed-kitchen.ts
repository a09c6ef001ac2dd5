/**
 * P9's data: two businesses of the bench's owner with the same menu of six
 * items in three categories, one whose `extra_data.kitchen` routes each
 * category to a station of its own (three stations) and one without a
 * kitchen setting (one ticket per order). Each gets KITCHEN_PENDING_ORDERS
 * pending cash orders of six lines, two per category, inserted straight
 * into the bench database as P16's orders are, so that every acceptance of
 * the load accepts an order of its own; the loads take them in turn.
 */
import { Client } from 'pg';
import { Api, priceOf } from './seed';
import {
  businessOwner,
  createBusiness,
  createItem,
  createMenu,
  inSeedTransaction,
} from './seed-common';

export const KITCHEN_BUSINESS_META_KEY = 'bench-kitchen';
export const NO_KITCHEN_BUSINESS_META_KEY = 'bench-no-kitchen';
/** More than any acceptance load takes at 50 connections in a warm-up and a measured period. */
export const KITCHEN_PENDING_ORDERS = 20_000;
const CATEGORIES = ['Mains', 'Drinks', 'Desserts'];
const STATIONS = [
  { key: 'grill', title: 'Grill', categories: ['Mains'] },
  { key: 'bar', title: 'Bar', categories: ['Drinks'] },
  { key: 'pastry', title: 'Pastry', categories: ['Desserts'] },
];

interface KitchenItem {
  uuid: string;
  title: string;
  category: string;
  unitPrice: string;
}

export interface SeededKitchenSide {
  businessUuid: string;
  menuUuid: string;
  items: KitchenItem[];
  /** The pending orders P9's load accepts in turn, filled by prepareKitchenOrders. */
  pendingOrders: string[];
}

export interface SeededKitchen {
  /** Three stations, routed by category. */
  kitchen: SeededKitchenSide;
  /** No kitchen setting: the one default station. */
  plain: SeededKitchenSide;
}

async function side(
  api: Api,
  token: string,
  metaKey: string,
  kitchen: boolean,
): Promise<SeededKitchenSide> {
  const business = await createBusiness(
    api,
    token,
    metaKey,
    kitchen ? 'Bench Kitchen Stations' : 'Bench Kitchen Without Stations',
    kitchen ? { kitchen: { stations: STATIONS, default_station: 'grill' } } : {},
  );
  const menu = await createMenu(api, token, business.uuid, 'menu', 'Menu');
  const items: KitchenItem[] = [];
  for (let index = 0; index < 2 * CATEGORIES.length; index++) {
    const category = CATEGORIES[index % CATEGORIES.length];
    const unitPrice = priceOf(index);
    const title = `${category} dish ${index}`;
    const created = await createItem(api, token, menu.uuid, title, category, unitPrice);
    items.push({ uuid: created.uuid, title, category, unitPrice });
  }
  return { businessUuid: business.uuid, menuUuid: menu.uuid, items, pendingOrders: [] };
}

export async function seedKitchen(api: Api, token: string): Promise<SeededKitchen> {
  return {
    kitchen: await side(api, token, KITCHEN_BUSINESS_META_KEY, true),
    plain: await side(api, token, NO_KITCHEN_BUSINESS_META_KEY, false),
  };
}

/** Pending dine-in cash orders of one line per item (two per category), as placement stores them. */
async function insertPendingOrders(
  client: Client,
  seeded: SeededKitchenSide,
  prefix: string,
): Promise<string[]> {
  const owner = await businessOwner(client, seeded.businessUuid);
  const amount = seeded.items.reduce((sum, item) => sum + Number(item.unitPrice), 0).toFixed(2);
  const orders = await client.query(
    `INSERT INTO orders (uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
       payment_status, payment_processor, amount, currency, customer_email_address,
       customer_phone_number, fulfilment_type, onpremise_data, items_subtotal, tip, tax,
       amount_paid, amount_refunded, created_at, updated_at)
     SELECT md5($7 || g)::uuid, $7 || lpad(g::text, 9, '0'), $2, $3, $4, 'pending', 'unpaid',
            'cash', $5, 'NGN', 'guest' || g || '@example.test', '+2348000000000', 'dine_in',
            jsonb_build_object('customer_onpremise_location_type', 'table',
              'customer_onpremise_location_number', (g % 20)::text,
              'customer_onpremise_location', 'table_' || g % 20),
            $5, 0, 0, 0, 0, $6::timestamptz, $6::timestamptz
       FROM generate_series(1, $1::int) AS g
     RETURNING uuid`,
    [
      KITCHEN_PENDING_ORDERS,
      seeded.menuUuid,
      seeded.businessUuid,
      owner,
      amount,
      new Date().toISOString(),
      prefix,
    ],
  );
  await client.query(
    `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
       unit_price_amount, options, quantity, line_total, item_note)
     SELECT md5($1 || 'line' || g || '-' || i.position)::uuid, md5($1 || g)::uuid, i.position,
            i.uuid, i.title, i.category, i.price, '[]'::jsonb, 1, i.price, NULL
       FROM generate_series(1, $2::int) AS g,
            jsonb_to_recordset($3::jsonb)
              AS i(position int, uuid uuid, title text, category text, price numeric)`,
    [
      prefix,
      KITCHEN_PENDING_ORDERS,
      JSON.stringify(
        seeded.items.map((item, position) => ({
          position,
          uuid: item.uuid,
          title: item.title,
          category: item.category,
          price: item.unitPrice,
        })),
      ),
    ],
  );
  return orders.rows.map((row: { uuid: string }) => row.uuid);
}

/** Both businesses' pending orders, once a run: P9's loads accept them in turn. */
export async function prepareKitchenOrders(
  databaseUrl: string,
  seeded: SeededKitchen,
): Promise<void> {
  if (seeded.kitchen.pendingOrders.length > 0) return;
  await inSeedTransaction(
    databaseUrl,
    async (client) => {
      seeded.kitchen.pendingOrders = await insertPendingOrders(client, seeded.kitchen, 'KIT');
      seeded.plain.pendingOrders = await insertPendingOrders(client, seeded.plain, 'PLN');
    },
    'orders, order_lines',
  );
}

/** The accepted orders of a business and the tickets stored for them. */
export async function kitchenTotals(
  databaseUrl: string,
  businessUuid: string,
): Promise<{ accepted: number; tickets: number }> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM orders WHERE business_uuid = $1 AND status = 'accepted')::int
                AS accepted,
              (SELECT count(*) FROM kitchen_tickets WHERE business_uuid = $1)::int AS tickets`,
      [businessUuid],
    );
    return rows[0] as { accepted: number; tickets: number };
  } finally {
    await client.end();
  }
}

export const KITCHEN_STATIONS = STATIONS.length;
export const KITCHEN_STATION_KEYS = STATIONS.map((station) => station.key);
