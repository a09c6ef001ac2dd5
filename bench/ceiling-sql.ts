/**
 * The ceiling's (bench/ceiling.ts) names and SQL: the same SQL text the
 * service sends, copied from src/entity/entity.repository.ts (storefront,
 * list), src/rate-limit/rate-limit.store.ts, src/order/*.repository.ts,
 * src/outbox/outbox.service.ts. When those change, change this file too.
 *
 * The table names follow CEILING_NAMESPACE.
 */
import { ServerResponse } from 'node:http';

const ns = process.env.CEILING_NAMESPACE ?? 'svc';

export const BUSINESS = `${ns}_business`;
export const MENU = `${ns}_business_menu`;
export const ITEM = `${ns}_business_menu_item`;
export const STOREFRONT = new RegExp(
  `^(/floor)?/public/api/v1/${ns}/storefront/([^/]+)/menu/([^/]+)$`,
);
export const LIST = `/public/api/v1/${ns}/smart-meta-manager/entity/${ITEM}`;
export const ORDER = `/plugins/${ns}/${ns}-init/order`;

export const COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data, e.trashed_at,
  e.created_at, e.updated_at`;

const SORT_KEY_LITERAL = `CASE WHEN jsonb_typeof(e.extra_data -> 'sort_position') = 'number' THEN (e.extra_data ->> 'sort_position')::numeric WHEN (e.extra_data ->> 'sort_position') ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (e.extra_data ->> 'sort_position')::numeric END`;
export const SORT_KEY_PARAM = `CASE WHEN jsonb_typeof(e.extra_data -> $6::text) = 'number' THEN (e.extra_data ->> $6::text)::numeric WHEN (e.extra_data ->> $6::text) ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (e.extra_data ->> $6::text)::numeric END`;

export const SQL = {
  business: `SELECT ${COLUMNS} FROM entities e
       WHERE e.entity_type = $1 AND lower(e.meta_key) = lower($2) AND e.meta_key IS NOT NULL
         AND e.parent_entity_uuid IS NULL AND e.trashed_at IS NULL AND e.status = 'enabled'`,
  menu: `SELECT ${COLUMNS} FROM entities e
       WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2 AND lower(e.meta_key) = lower($3)
         AND e.meta_key IS NOT NULL AND e.trashed_at IS NULL AND e.status = 'enabled'
       ORDER BY e.created_at, e.uuid LIMIT 1`,
  items: `SELECT ${COLUMNS} FROM entities e
       WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2
         AND e.trashed_at IS NULL AND e.status = 'enabled'
       ORDER BY ${SORT_KEY_LITERAL} ASC NULLS LAST, (e.extra_data ->> 'sort_position') ASC NULLS LAST,
         e.created_at ASC, e.uuid ASC
       LIMIT $3`,
  listFrom: `FROM entities e
WHERE e.entity_type = $3 AND e.trashed_at IS NULL AND (e.status = 'enabled' AND e.trashed_at IS NULL AND EXISTS (SELECT 1 FROM (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = $5 OFFSET 0) a1 JOIN LATERAL (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = a1.parent_entity_uuid OFFSET 0) a2 ON true WHERE a1.entity_type = $1 AND a1.status = 'enabled' AND a1.trashed_at IS NULL AND a2.entity_type = $2 AND a2.status = 'enabled' AND a2.trashed_at IS NULL)) AND e.parent_entity_type = $4 AND e.parent_entity_uuid = $5`,
  rateLimit: `INSERT INTO rate_limit_counters (bucket, subject, window_start, expires_at, hits)
       VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (bucket, subject, window_start)
       DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits`,
  claimKey: `INSERT INTO idempotency_keys (scope, key, request_hash, created_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at,
             response_status = NULL, response_body = NULL, resource_uuid = NULL
         WHERE idempotency_keys.created_at < $5
       RETURNING key`,
  menuWithBusiness: `SELECT ${COLUMNS}, ${COLUMNS.replace(/e\.(\w+)/g, 'b.$1 AS b_$1')}
       FROM entities e
       JOIN entities b ON b.uuid = e.parent_entity_uuid AND b.entity_type = $3
         AND b.status = 'enabled' AND b.trashed_at IS NULL
       WHERE e.uuid = $1 AND e.entity_type = $2 AND e.status = 'enabled' AND e.trashed_at IS NULL
         AND b.parent_entity_uuid IS NULL`,
  orderItems: `SELECT ${COLUMNS} FROM entities e
       WHERE e.uuid = ANY($1::uuid[]) AND e.parent_entity_uuid = $2 AND e.entity_type = $3
         AND e.status = 'enabled' AND e.trashed_at IS NULL`,
  insertOrder: `INSERT INTO orders (order_reference, menu_uuid, business_uuid, owner_uuid, payment_processor,
           amount, currency, customer_email_address, customer_phone_number,
           customer_requested_order_email_copy, general_note, delivery_data, onpremise_data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb)
         ON CONFLICT (order_reference) DO NOTHING
         RETURNING uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
  payment_status, payment_processor, amount, currency, customer_email_address,
  customer_phone_number, customer_requested_order_email_copy, general_note, owner_note,
  delivery_data, onpremise_data, created_at, updated_at`,
  insertLines: (count: number) =>
    `INSERT INTO order_lines (order_uuid, position, item_uuid, title_name, category,
         unit_price_amount, options, quantity, line_total, item_note)
       VALUES ${Array.from(
         { length: count },
         (_, i) =>
           `(${Array.from({ length: 10 }, (_, j) => `$${i * 10 + j + 1}${j === 6 ? '::jsonb' : ''}`).join(', ')})`,
       ).join(', ')}
       RETURNING uuid, order_uuid, position, item_uuid, title_name, category,
  unit_price_amount, options, quantity, line_total, item_note`,
  insertEvent: `INSERT INTO order_events (order_uuid, field, from_value, to_value, actor_uuid, actor)
       VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, order_uuid, field, from_value, to_value, actor_uuid, actor, created_at`,
  notification:
    'INSERT INTO notifications (user_uuid, kind, title, body, data) VALUES ($1, $2, $3, $4, $5::jsonb)',
  owner: 'SELECT email, name FROM users WHERE uuid = $1',
  outbox: 'INSERT INTO outbox (kind, payload) VALUES ($1, $2::jsonb)',
  notify: 'SELECT pg_notify($1, $2)',
  completeKey: `UPDATE idempotency_keys SET response_status = $3, response_body = $4::jsonb, resource_uuid = $5
       WHERE scope = $1 AND key = $2`,
};
/** Every answer of the ceiling: JSON.stringify of the envelope. */
export function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
