/**
 * The ceiling: the least a Node process can do to answer P1–P3. A bare
 * node:http server with a pg pool of the service's size that sends the same
 * SQL text as the service, with the same parameters, in the same order (the
 * same transaction for P3), and answers with JSON.stringify of the same
 * envelope. No framework, no validation, no checks: what the service does
 * beyond this is what its ratio to the ceiling measures.
 *
 * The SQL is copied from src/entity/entity.repository.ts (storefront, list),
 * src/rate-limit/rate-limit.store.ts, src/order/*.repository.ts,
 * src/outbox/outbox.service.ts. When those change, change this file too.
 *
 * Configured by the environment: CEILING_PORT, CEILING_DATABASE_URL,
 * CEILING_POOL_SIZE, CEILING_NAMESPACE.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Pool, PoolClient } from 'pg';

const port = Number(process.env.CEILING_PORT);
const ns = process.env.CEILING_NAMESPACE ?? 'svc';
const pool = new Pool({
  connectionString: process.env.CEILING_DATABASE_URL,
  max: Number(process.env.CEILING_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 10000,
});

const BUSINESS = `${ns}_business`;
const MENU = `${ns}_business_menu`;
const ITEM = `${ns}_business_menu_item`;
const STOREFRONT = new RegExp(`^(/floor)?/public/api/v1/${ns}/storefront/([^/]+)/menu/([^/]+)$`);
const LIST = `/public/api/v1/${ns}/smart-meta-manager/entity/${ITEM}`;
const ORDER = `/plugins/${ns}/${ns}-init/order`;

const COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data, e.trashed_at,
  e.created_at, e.updated_at`;

const SORT_KEY_LITERAL = `CASE WHEN jsonb_typeof(e.extra_data -> 'sort_position') = 'number' THEN (e.extra_data ->> 'sort_position')::numeric WHEN (e.extra_data ->> 'sort_position') ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (e.extra_data ->> 'sort_position')::numeric END`;
const SORT_KEY_PARAM = `CASE WHEN jsonb_typeof(e.extra_data -> $6::text) = 'number' THEN (e.extra_data ->> $6::text)::numeric WHEN (e.extra_data ->> $6::text) ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (e.extra_data ->> $6::text)::numeric END`;

const SQL = {
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
LEFT JOIN entities a1 ON a1.uuid = e.parent_entity_uuid AND a1.entity_type = $1 AND a1.status = 'enabled' AND a1.trashed_at IS NULL
LEFT JOIN entities a2 ON a2.uuid = a1.parent_entity_uuid AND a2.entity_type = $2 AND a2.status = 'enabled' AND a2.trashed_at IS NULL
WHERE e.entity_type = $3 AND e.trashed_at IS NULL AND (e.status = 'enabled' AND e.trashed_at IS NULL AND a1.uuid IS NOT NULL AND a2.uuid IS NOT NULL) AND e.parent_entity_type = $4 AND e.parent_entity_uuid = $5`,
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
         unit_price_amount, quantity, line_total, item_note)
       VALUES ${Array.from(
         { length: count },
         (_, i) => `(${Array.from({ length: 9 }, (_, j) => `$${i * 9 + j + 1}`).join(', ')})`,
       ).join(', ')}
       RETURNING uuid, order_uuid, position, item_uuid, title_name, category,
  unit_price_amount, quantity, line_total, item_note`,
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

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * The floor under P1: the bytes of a storefront answer (gzipped when the
 * request accepts gzip), built once and then written from memory. No server
 * can answer P1 faster on this machine; it shows what the transport and the
 * load generator alone cost for answers of this size.
 */
const floorBytes = new Map<string, { plain: Buffer; gzipped: Buffer }>();

async function floor(
  req: IncomingMessage,
  res: ServerResponse,
  businessKey: string,
  menuKey: string,
) {
  const key = `${businessKey}/${menuKey}`;
  let bytes = floorBytes.get(key);
  if (!bytes) {
    const business = (await pool.query(SQL.business, [BUSINESS, businessKey])).rows[0];
    const menu = business && (await pool.query(SQL.menu, [business.uuid, MENU, menuKey])).rows[0];
    if (!menu) return send(res, 404, { status: false, message: 'Not found' });
    const items = (await pool.query(SQL.items, [menu.uuid, ITEM, 1001])).rows;
    const plain = Buffer.from(
      JSON.stringify({
        status: true,
        message: 'Storefront found',
        data: { business, menu, items: items.slice(0, 1000), items_truncated: items.length > 1000 },
      }),
    );
    bytes = { plain, gzipped: gzipSync(plain) };
    floorBytes.set(key, bytes);
  }
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = gzip ? bytes.gzipped : bytes.plain;
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  res.end(body);
}

/** Strips the "b_" prefix of the business half of menuWithBusiness. */
function split(row: Record<string, unknown>): {
  menu: Record<string, unknown>;
  business: Record<string, unknown>;
} {
  const menu: Record<string, unknown> = {};
  const business: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('b_')) business[key.slice(2)] = value;
    else menu[key] = value;
  }
  return { menu, business };
}

async function storefront(res: ServerResponse, businessKey: string, menuKey: string) {
  const business = (await pool.query(SQL.business, [BUSINESS, businessKey])).rows[0];
  if (!business) return send(res, 404, { status: false, message: 'Not found' });
  const menu = (await pool.query(SQL.menu, [business.uuid, MENU, menuKey])).rows[0];
  if (!menu) return send(res, 404, { status: false, message: 'Not found' });
  const items = (await pool.query(SQL.items, [menu.uuid, ITEM, 1001])).rows;
  send(res, 200, {
    status: true,
    message: 'Storefront found',
    data: { business, menu, items: items.slice(0, 1000), items_truncated: items.length > 1000 },
  });
}

async function list(res: ServerResponse, query: URLSearchParams) {
  const page = Number(query.get('page') ?? 1);
  const perPage = Math.min(Number(query.get('per_page') ?? 20), 1000);
  const params: unknown[] = [
    MENU,
    BUSINESS,
    ITEM,
    query.get('parent_entity_type'),
    query.get('parent_entity_uuid'),
  ];
  const total: number = (await pool.query(`SELECT count(*)::int AS total ${SQL.listFrom}`, params))
    .rows[0].total;
  let data: unknown[] = [];
  if (total > 0 && (page - 1) * perPage < total) {
    data = (
      await pool.query(
        `SELECT ${COLUMNS} ${SQL.listFrom} ORDER BY ${SORT_KEY_PARAM} ASC NULLS LAST, (e.extra_data ->> $6::text) ASC NULLS LAST, e.created_at ASC, e.uuid ASC LIMIT $7 OFFSET $8`,
        [
          ...params,
          query.get('sort_by')!.slice('extra_data.'.length),
          perPage,
          (page - 1) * perPage,
        ],
      )
    ).rows;
  }
  send(res, 200, {
    status: true,
    message: 'Menu item records',
    data,
    meta: { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) },
  });
}

const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function orderReference(): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const byte of bytes) out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

function cents(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function money(value: number): string {
  return `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function placeOrder(req: IncomingMessage, res: ServerResponse) {
  const text = await readBody(req);
  const body = JSON.parse(text);
  const key = String(req.headers['idempotency-key']);
  const now = Date.now();
  const windowStart = Math.floor(now / 60000) * 60000;
  await pool.query(SQL.rateLimit, [
    'order-place-ip',
    createHash('sha256')
      .update(req.socket.remoteAddress ?? '')
      .digest('hex'),
    new Date(windowStart),
    new Date(windowStart + 60000),
  ]);
  const client: PoolClient = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const requestHash = createHash('sha256').update(text).digest('hex');
    await client.query(SQL.claimKey, [
      'order.place',
      key,
      requestHash,
      new Date(now),
      new Date(now - 86_400_000),
    ]);
    const found = (await client.query(SQL.menuWithBusiness, [body.menu_uuid, MENU, BUSINESS]))
      .rows[0];
    const { menu, business } = split(found);
    const wanted: string[] = body.cart_items.map((line: { uuid: string }) => line.uuid);
    const items = new Map<string, any>(
      (await client.query(SQL.orderItems, [wanted, menu.uuid, ITEM])).rows.map((item) => [
        item.uuid,
        item,
      ]),
    );
    const lines = body.cart_items.map(
      (line: { uuid: string; quantity: number; item_note?: string }, position: number) => {
        const item = items.get(line.uuid);
        const unit = cents(item.extra_data.unit_price_amount);
        return {
          position,
          item,
          unit,
          quantity: line.quantity,
          total: unit * line.quantity,
          note: line.item_note || null,
        };
      },
    );
    const amount = money(
      lines.reduce((sum: number, line: { total: number }) => sum + line.total, 0),
    );
    const inserted = await client.query(SQL.insertOrder, [
      orderReference(),
      menu.uuid,
      business.uuid,
      business.owned_by,
      body.payment_processor ?? 'cash',
      amount,
      (menu.extra_data as Record<string, unknown>).menu_base_wallet_ticker,
      body.customer_email_address,
      body.customer_phone_number || null,
      body.customer_requested_order_email_copy ?? false,
      body.general_note || null,
      body.delivery_data ? JSON.stringify(body.delivery_data) : null,
      body.onpremise_data ? JSON.stringify(body.onpremise_data) : null,
    ]);
    const order = inserted.rows[0];
    const orderUuid: string = order.uuid;
    const storedLines = (
      await client.query(
        SQL.insertLines(lines.length),
        lines.flatMap((line: any) => [
          orderUuid,
          line.position,
          line.item.uuid,
          line.item.title_name,
          line.item.extra_data.category,
          money(line.unit),
          line.quantity,
          money(line.total),
          line.note,
        ]),
      )
    ).rows;
    const storedEvents = (
      await client.query(SQL.insertEvent, [orderUuid, 'status', null, 'pending', null, 'guest'])
    ).rows;
    const answer = {
      ...order,
      items: storedLines.map((line) => ({
        item_uuid: line.item_uuid,
        title_name: line.title_name,
        unit_price_amount: line.unit_price_amount,
        quantity: line.quantity,
        line_total: line.line_total,
        item_note: line.item_note,
      })),
      history: storedEvents.map((event) => ({
        field: event.field,
        from: event.from_value,
        to: event.to_value,
        by: event.actor_uuid,
        actor: event.actor,
        at: event.created_at,
      })),
    };
    const summary = {
      order_uuid: orderUuid,
      order_reference: order.order_reference,
      business_uuid: business.uuid,
      menu_uuid: menu.uuid,
      amount,
      currency: order.currency,
    };
    await client.query(SQL.notification, [
      business.owned_by,
      'order.created',
      `New order ${order.order_reference}`,
      `${lines.length} items, total ${amount} ${order.currency}, at ${business.title_name}`,
      JSON.stringify(summary),
    ]);
    const owner = (await client.query(SQL.owner, [business.owned_by])).rows[0];
    const mailText = lines
      .map(
        (line: any) =>
          `  ${line.quantity} × ${line.item.title_name} @ ${money(line.unit)} = ${money(line.total)}`,
      )
      .join('\n');
    await client.query(SQL.outbox, [
      'mail',
      JSON.stringify({
        to: owner.email,
        subject: `New order ${order.order_reference} for ${business.title_name}`,
        text: `${business.title_name} has a new order.\n\n${mailText}\n\nTotal: ${amount}`,
      }),
    ]);
    if (body.customer_requested_order_email_copy) {
      await client.query(SQL.outbox, [
        'mail',
        JSON.stringify({
          to: body.customer_email_address,
          subject: `Your order ${order.order_reference} at ${business.title_name}`,
          text: `Thank you for your order.\n\n${mailText}\n\nTotal: ${amount}`,
        }),
      ]);
    }
    await client.query(SQL.notify, [
      'order_created',
      JSON.stringify({
        id: randomUUID(),
        type: 'order.created',
        ownerUuid: business.owned_by,
        order: summary,
      }),
    ]);
    await client.query(SQL.completeKey, [
      'order.place',
      key,
      201,
      JSON.stringify(answer),
      orderUuid,
    ]);
    await client.query('COMMIT');
    send(res, 201, { status: true, message: 'Order placed', data: answer });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname === '/health') {
    return send(res, 200, { status: true, message: 'OK', data: { status: 'ok' } });
  }
  const storefrontMatch = req.method === 'GET' ? STOREFRONT.exec(url.pathname) : null;
  if (storefrontMatch) {
    const businessKey = decodeURIComponent(storefrontMatch[2]);
    const menuKey = decodeURIComponent(storefrontMatch[3]);
    return storefrontMatch[1]
      ? floor(req, res, businessKey, menuKey)
      : storefront(res, businessKey, menuKey);
  }
  if (req.method === 'GET' && url.pathname === LIST) return list(res, url.searchParams);
  if (req.method === 'POST' && url.pathname === ORDER) return placeOrder(req, res);
  send(res, 404, { status: false, message: 'Not found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(`ceiling: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent) send(res, 500, { status: false, message: 'Internal error' });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');

const stop = () => {
  server.close();
  server.closeAllConnections();
  pool.end().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
