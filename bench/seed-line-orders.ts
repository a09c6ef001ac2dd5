/**
 * P16's data: LINE_ORDERS orders of the priced business with
 * LINES_PER_ORDER lines each, placed in January 2025 (a month no other row
 * writes to), inserted straight into the bench database as P7's orders are.
 */
import { SeededItem } from './seed';
import { businessOwner, inSeedTransaction } from './seed-common';

export const LINE_ORDERS = 500;
export const LINES_PER_ORDER = 100;
export const LINE_ORDERS_FROM = '2025-01-01';
export const LINE_ORDERS_TO = '2025-01-31';

export async function seedLineOrders(
  databaseUrl: string,
  businessUuid: string,
  menuUuid: string,
  items: SeededItem[],
): Promise<void> {
  await inSeedTransaction(databaseUrl, async (client) => {
    const owner = await businessOwner(client, businessUuid);
    const subtotal = LINES_PER_ORDER * Number(items[0].unitPrice);
    await client.query(
      `INSERT INTO orders (uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
         payment_status, payment_processor, amount, currency, customer_email_address,
         customer_phone_number, fulfilment_type, items_subtotal, tip, tax, amount_paid,
         amount_refunded, created_at, updated_at)
       SELECT md5('line-order-' || g)::uuid, 'LNS' || lpad(g::text, 9, '0'), $2, $3, $4,
              'completed', 'paid', 'cash', $5, 'NGN', 'guest' || g || '@example.test',
              '+2348000000000', 'dine_in', $5, 0, 0, $5, 0,
              $6::timestamptz + (g - 1) * (interval '30 days' / $1::int),
              $6::timestamptz + (g - 1) * (interval '30 days' / $1::int)
         FROM generate_series(1, $1::int) AS g`,
      [LINE_ORDERS, menuUuid, businessUuid, owner, subtotal, `${LINE_ORDERS_FROM}T00:00:00Z`],
    );
    await client.query(
      `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
         unit_price_amount, options, quantity, line_total, item_note)
       SELECT md5('line-order-line-' || g || '-' || i)::uuid, md5('line-order-' || g)::uuid, i,
              $2::uuid, 'Grill dish, line ' || i, 'Mains', $3, '[]'::jsonb, 1, $3, NULL
         FROM generate_series(1, $1::int) AS g, generate_series(0, $4::int - 1) AS i`,
      [LINE_ORDERS, items[0].uuid, items[0].unitPrice, LINES_PER_ORDER],
    );
  });
}
