/**
 * The ceiling: the least a Node process can do to answer P1–P3. A bare
 * node:http server with a pg pool of the service's size that sends the same
 * SQL text as the service, with the same parameters, in the same order (the
 * same transaction for P3), and answers with JSON.stringify of the same
 * envelope. No framework, no validation, no checks: what the service does
 * beyond this is what its ratio to the ceiling measures.
 *
 * The SQL and the names it is sent with are in bench/ceiling-sql.ts (copied
 * from the service: when it changes, change that file too), P3's order
 * placement is in bench/ceiling-order.ts; this file is the server and its
 * answers to P1 and P2.
 *
 * Configured by the environment: CEILING_PORT, CEILING_DATABASE_URL,
 * CEILING_POOL_SIZE, CEILING_NAMESPACE.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Pool } from 'pg';
import { placeOrder } from './ceiling-order';
import {
  BUSINESS,
  COLUMNS,
  ITEM,
  LIST,
  MENU,
  ORDER,
  send,
  SORT_KEY_PARAM,
  SQL,
  STOREFRONT,
} from './ceiling-sql';

const port = Number(process.env.CEILING_PORT);
const pool = new Pool({
  connectionString: process.env.CEILING_DATABASE_URL,
  max: Number(process.env.CEILING_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 10000,
});

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
        data: {
          business,
          menu,
          items: items.slice(0, 1000),
          items_truncated: items.length > 1000,
          open_now: true,
          next_change_at: null,
        },
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
async function storefront(res: ServerResponse, businessKey: string, menuKey: string) {
  const business = (await pool.query(SQL.business, [BUSINESS, businessKey])).rows[0];
  if (!business) return send(res, 404, { status: false, message: 'Not found' });
  const menu = (await pool.query(SQL.menu, [business.uuid, MENU, menuKey])).rows[0];
  if (!menu) return send(res, 404, { status: false, message: 'Not found' });
  const items = (await pool.query(SQL.items, [menu.uuid, ITEM, 1001])).rows;
  send(res, 200, {
    status: true,
    message: 'Storefront found',
    data: {
      business,
      menu,
      items: items.slice(0, 1000),
      items_truncated: items.length > 1000,
      open_now: true,
      next_change_at: null,
    },
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
  if (req.method === 'POST' && url.pathname === ORDER) return placeOrder(pool, req, res);
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
