/**
 * P7 and P8's data: REPORT_ORDERS orders of the bench business over the
 * year before REPORT_YEAR_END, two lines each with options, inserted
 * straight into the bench database with generate_series (through the API
 * it would take an hour). Statuses, processors and fulfilment types are
 * spread as a real business's would be: mostly completed, some pending,
 * rejected and cancelled.
 */
import { businessOwner, inSeedTransaction } from './seed-common';

export const REPORT_ORDERS = 200_000;
/** The year P7 and P8 read: 2025-11-01 … 2026-10-31, both counted (365 days), before any order the other scenarios place. */
export const REPORT_FROM = '2025-11-01';
export const REPORT_TO = '2026-10-31';

export interface ReportSeedItem {
  uuid: string;
  unitPrice: string;
}

export async function seedReportOrders(
  databaseUrl: string,
  businessUuid: string,
  menuUuid: string,
  items: ReportSeedItem[],
): Promise<void> {
  await inSeedTransaction(databaseUrl, async (client) => {
    const owner = await businessOwner(client, businessUuid);
    // Line i of order g: item (g * 7 + i * 13) % n, quantity 1 + (g + i) % 3, the large size
    // (+1.50) on every other line and cheese (+0.75) on every third.
    await client.query(
      `CREATE TEMP TABLE seed_lines ON COMMIT DROP AS
       SELECT g, i, ($2::uuid[])[1 + (g * 7 + i * 13) % $3::int] AS item_uuid,
              ($4::numeric[])[1 + (g * 7 + i * 13) % $3::int]
                + CASE WHEN (g + i) % 2 = 0 THEN 1.50 ELSE 0 END
                + CASE WHEN (g + i) % 3 = 0 THEN 0.75 ELSE 0 END AS unit_price,
              1 + (g + i) % 3 AS quantity,
              (g + i) % 2 = 0 AS large, (g + i) % 3 = 0 AS cheese
         FROM generate_series(1, $1::int) AS g, generate_series(0, 1) AS i`,
      [REPORT_ORDERS, items.map((i) => i.uuid), items.length, items.map((i) => i.unitPrice)],
    );
    await client.query(
      `INSERT INTO orders (uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
         payment_status, payment_processor, amount, currency, customer_email_address,
         customer_phone_number, fulfilment_type, items_subtotal, tip, tax, amount_paid,
         amount_refunded, created_at, updated_at)
       SELECT md5('report-order-' || s.g)::uuid, 'RPT' || lpad(s.g::text, 9, '0'), $2, $3, $4,
              (ARRAY['completed','completed','completed','completed','completed','completed',
                     'accepted','pending','rejected','cancelled'])[1 + s.g % 10],
              CASE WHEN s.g % 10 < 7 THEN 'paid' ELSE 'unpaid' END,
              (ARRAY['cash','paystack','bank_transfer'])[1 + s.g % 3],
              s.subtotal + 0.50, 'NGN', 'guest' || (s.g % 5000) || '@example.test',
              '+23480' || lpad((s.g % 100000)::text, 8, '0'),
              (ARRAY['pickup','dine_in','delivery'])[1 + s.g % 3],
              s.subtotal, 0.50, 0, CASE WHEN s.g % 10 < 7 THEN s.subtotal + 0.50 ELSE 0 END,
              CASE WHEN s.g % 97 = 0 THEN 1.25 ELSE 0 END,
              $5::timestamptz + (s.g - 1) * (interval '365 days' / $1::int),
              $5::timestamptz + (s.g - 1) * (interval '365 days' / $1::int)
         FROM (SELECT g, sum(unit_price * quantity) AS subtotal FROM seed_lines GROUP BY g) AS s`,
      [REPORT_ORDERS, menuUuid, businessUuid, owner, `${REPORT_FROM}T00:00:00Z`],
    );
    await client.query(
      `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
         unit_price_amount, options, quantity, line_total, item_note)
       SELECT md5('report-line-' || l.g || '-' || l.i)::uuid, md5('report-order-' || l.g)::uuid,
              l.i, l.item_uuid, 'Dish ' || left(l.item_uuid::text, 8), 'Mains', l.unit_price,
              jsonb_build_array(jsonb_build_object('group', 'size', 'group_title', 'Size',
                  'option', CASE WHEN l.large THEN 'large' ELSE 'regular' END,
                  'option_title', CASE WHEN l.large THEN 'Large' ELSE 'Regular' END,
                  'price_delta', CASE WHEN l.large THEN '1.50' ELSE '0' END))
                || CASE WHEN l.cheese THEN jsonb_build_array(jsonb_build_object('group', 'extras',
                  'group_title', 'Extras', 'option', 'cheese', 'option_title', 'Cheese',
                  'price_delta', '0.75')) ELSE '[]'::jsonb END,
              l.quantity, l.unit_price * l.quantity, NULL
         FROM seed_lines l`,
    );
  });
}
