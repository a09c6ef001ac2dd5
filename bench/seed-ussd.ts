/**
 * P15's data: a business whose menu takes Paystack (every channel, NGN),
 * and USSD_ORDERS unpaid cash orders of one dish inserted straight into the
 * bench database as P9's are, so that every USSD charge of the load opens
 * the first charge of an order of its own (the loads take them in turn),
 * each with the guest's order token in the query.
 */
import { OrderTokens } from '../src/order/domain/order-token';
import { Api, priceOf } from './seed';
import {
  businessOwner,
  createBusiness,
  createItem,
  createMenu,
  inSeedTransaction,
} from './seed-common';

export const USSD_BUSINESS_META_KEY = 'bench-ussd';
/** More than a charge load takes at 50 connections in a warm-up and a measured period. */
export const USSD_ORDERS = 20_000;

export interface SeededUssd {
  businessUuid: string;
  menuUuid: string;
  item: { uuid: string; title: string; unitPrice: string };
  /** The unpaid orders P15's load charges in turn, filled by prepareUssdOrders. */
  orders: string[];
}

export async function seedUssd(api: Api, token: string): Promise<SeededUssd> {
  const business = await createBusiness(api, token, USSD_BUSINESS_META_KEY, 'Bench USSD Canteen');
  const menu = await createMenu(api, token, business.uuid, 'menu', 'Menu', {
    menu_checkout_payments_providers: {
      paystack: { title: 'Pay online', description: 'Card, USSD or transfer' },
    },
  });
  const unitPrice = priceOf(3);
  const title = 'Jollof rice';
  const item = await createItem(api, token, menu.uuid, title, 'Mains', unitPrice);
  return {
    businessUuid: business.uuid,
    menuUuid: menu.uuid,
    item: { uuid: item.uuid, title, unitPrice },
    orders: [],
  };
}

/** The unpaid pickup orders of one line, as placement stores a cash order; once a run. */
export async function prepareUssdOrders(databaseUrl: string, seeded: SeededUssd): Promise<void> {
  if (seeded.orders.length > 0) return;
  seeded.orders = await inSeedTransaction(
    databaseUrl,
    async (client) => {
      const owner = await businessOwner(client, seeded.businessUuid);
      const orders = await client.query(
        `INSERT INTO orders (uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
         payment_status, payment_processor, amount, currency, customer_email_address,
         customer_phone_number, fulfilment_type, items_subtotal, tip, tax, amount_paid,
         amount_refunded, created_at, updated_at)
       SELECT md5('USSD' || g)::uuid, 'USSD' || lpad(g::text, 9, '0'), $2, $3, $4, 'pending',
              'unpaid', 'cash', $5, 'NGN', 'guest' || g || '@example.test', '+2348000000000',
              'pickup', $5, 0, 0, 0, 0, $6::timestamptz, $6::timestamptz
         FROM generate_series(1, $1::int) AS g
       RETURNING uuid`,
        [
          USSD_ORDERS,
          seeded.menuUuid,
          seeded.businessUuid,
          owner,
          seeded.item.unitPrice,
          new Date().toISOString(),
        ],
      );
      await client.query(
        `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
         unit_price_amount, options, quantity, line_total, item_note)
       SELECT md5('USSD-line' || g)::uuid, md5('USSD' || g)::uuid, 0, $2, $3, 'Mains', $4,
              '[]'::jsonb, 1, $4, NULL
         FROM generate_series(1, $1::int) AS g`,
        [USSD_ORDERS, seeded.item.uuid, seeded.item.title, seeded.item.unitPrice],
      );
      return orders.rows.map((row: { uuid: string }) => row.uuid);
    },
    'orders, order_lines',
  );
}

/** The charge route of each prepared order, with its guest's token (the service's secret derives it). */
export function ussdChargePaths(ns: string, seeded: SeededUssd, serviceSecret: string): string[] {
  const tokens = new OrderTokens(serviceSecret);
  if (seeded.orders.length === 0) throw new Error('no orders prepared for the USSD charges');
  return seeded.orders.map(
    (uuid) =>
      `/plugins/${ns}/${ns}-init/order/${uuid}/payments?order_token=${tokens.tokenFor(uuid)}`,
  );
}
