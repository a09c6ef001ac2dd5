import { randomBytes } from 'node:crypto';
import http, { IncomingMessage } from 'node:http';
import { Response } from 'supertest';
import { Catalog, EntityResponse } from './entity';
import { expectOk } from './expect';
import { TestApp } from './test-app';

/** A body that places an order of one of each of the catalog's items (or the given lines). */
export function orderBody(
  catalog: Catalog,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    menu_uuid: catalog.menu.uuid,
    amount:
      catalog.items.reduce(
        (cents, item) => cents + Math.round(Number(item.extra_data.unit_price_amount) * 100),
        0,
      ) / 100,
    payment_processor: 'cash',
    customer_email_address: `guest-${randomBytes(3).toString('hex')}@example.test`,
    customer_phone_number: '+2348000000000',
    customer_requested_order_email_copy: false,
    general_note: '',
    delivery_data: { delivery_identifier: '', delivery_address: '' },
    onpremise_data: {
      customer_onpremise_location_type: '',
      customer_onpremise_location_number: '',
      customer_onpremise_location: '_',
    },
    cart_items: catalog.items.map((item) => ({ uuid: item.uuid, quantity: 1, item_note: '' })),
    ...overrides,
  };
}

export function cartLine(item: EntityResponse, quantity = 1, item_note = '') {
  return { uuid: item.uuid, quantity, item_note };
}

/** A random client address: rate limits count per IP (rule 8), so tests keep out of each other's way. */
export function randomIp(): string {
  const [a, b, c] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

/** Headers of a guest (API key only) from its own IP. */
export function guestHeaders(t: TestApp, ip = randomIp()): Record<string, string> {
  return { 'x-api-key': t.config.apiKeys[0], 'x-forwarded-for': ip };
}

export function placeOrderRequest(
  t: TestApp,
  body: Record<string, unknown>,
  headers: Record<string, string> = guestHeaders(t),
) {
  return t.http.post(`${t.orders}/order`).set(headers).send(body);
}

/** Places an order and returns the 201 answer's data. */
export async function placeOrder(
  t: TestApp,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<any> {
  const res: Response = await placeOrderRequest(t, body, headers);
  return expectOk(res, 201);
}

export function updateOrderRequest(
  t: TestApp,
  headers: Record<string, string>,
  orderUuid: string,
  body: Record<string, unknown>,
) {
  return t.http.put(`${t.orders}/admin/order/update/${orderUuid}`).set(headers).send(body);
}

export interface RowCounts {
  orders: number;
  order_lines: number;
  order_events: number;
  notifications: number;
  outbox: number;
  idempotency_keys: number;
}

/** Rows in every table an order placement writes; compare before and after a refusal. */
export async function rowCounts(t: TestApp): Promise<RowCounts> {
  const [row] = await t.dataSource.query(
    `SELECT (SELECT count(*) FROM orders)::int AS orders,
            (SELECT count(*) FROM order_lines)::int AS order_lines,
            (SELECT count(*) FROM order_events)::int AS order_events,
            (SELECT count(*) FROM notifications)::int AS notifications,
            (SELECT count(*) FROM outbox)::int AS outbox,
            (SELECT count(*) FROM idempotency_keys)::int AS idempotency_keys`,
  );
  return row as RowCounts;
}

export interface StreamEvent {
  id?: string;
  event: string;
  data: any;
}

/** A Server-Sent Events client over plain HTTP, as a browser's EventSource would read the stream. */
export interface OrderStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body, for a refused stream. */
  body: string;
  events: StreamEvent[];
  comments: string[];
  waitFor(predicate: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  waitForComment(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens `path` on `baseUrl` and resolves once the stream is registered (its
 * first comment arrived) or refused (any status other than 200).
 */
export function openStream(
  baseUrl: string,
  path: string,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<OrderStream> {
  const url = new URL(path, baseUrl);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return new Promise((resolve, reject) => {
    const listeners = new Set<() => void>();
    const notify = () => listeners.forEach((listener) => listener());
    let buffer = '';
    let endedResolve!: () => void;
    const ended = new Promise<void>((done) => (endedResolve = done));
    const stream: OrderStream = {
      status: 0,
      headers: {},
      body: '',
      events: [],
      comments: [],
      ended,
      close: () => request.destroy(),
      waitFor(predicate, timeoutMs = 15_000) {
        return waitUntil(() => stream.events.find(predicate), timeoutMs, 'event');
      },
      async waitForComment(text, timeoutMs = 15_000) {
        await waitUntil(
          () => (stream.comments.includes(text) ? true : undefined),
          timeoutMs,
          `comment "${text}"`,
        );
      },
    };
    function waitUntil<T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
      return new Promise((done, fail) => {
        const check = () => {
          const found = find();
          if (found === undefined) return false;
          cleanup();
          done(found);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          fail(
            new Error(`No ${what} within ${timeoutMs} ms; got ${JSON.stringify(stream.events)}`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(listener);
        };
        const listener = () => void check();
        if (!check()) listeners.add(listener);
      });
    }
    const request = http.get(url, { headers }, (res) => {
      stream.status = res.statusCode ?? 0;
      stream.headers = res.headers;
      res.setEncoding('utf8');
      if (stream.status !== 200) {
        res.on('data', (chunk: string) => (stream.body += chunk));
        res.on('end', () => {
          endedResolve();
          resolve(stream);
        });
        return;
      }
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: Partial<StreamEvent> & { dataText?: string } = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('data: ')) event.dataText = line.slice(6);
          }
          if (event.event) {
            stream.events.push({
              id: event.id,
              event: event.event,
              data: event.dataText === undefined ? undefined : JSON.parse(event.dataText),
            });
          }
          if (stream.comments.includes('connected')) resolve(stream);
          notify();
        }
      });
      res.on('end', () => endedResolve());
      res.on('close', () => endedResolve());
    });
    request.on('error', (error) => {
      endedResolve();
      if (stream.status === 0) reject(error);
    });
  });
}

/** The caller's order stream on `t` (core space), with the credentials in the query as EventSource sends them. */
export function openOrderStream(t: TestApp, token: string, baseUrl = t.baseUrl) {
  return openStream(baseUrl, `${t.core}/orders/stream`, {
    api_key: t.config.apiKeys[0],
    access_token: token,
  });
}
