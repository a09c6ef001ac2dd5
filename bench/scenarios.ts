/**
 * What the bench measures: one row of the table per scenario, in the order
 * the table prints them, and the requests each one sends. harness.ts walks
 * SCENARIOS once per service run (phase): first the service with the
 * storefront cache off, then with its default cache.
 */
import { NS } from './bench-env';
import { DISCOUNT } from './seed-priced';
import { scheduledOrderBodies } from './seed-scheduled';
import {
  BIG_MENU_META_KEY,
  BUSINESS_META_KEY,
  chosenOptions,
  LONG_TAIL_BUSINESSES,
  longTailStorefront,
  OPTION_GROUPS,
  Seeded,
  SeededItem,
} from './seed';
import { reportPath } from './report-bench';
import { LoadSpec } from './types';

export type Phase = 'cache off' | 'default cache';

/** One load run: its log name, where it goes, and what it asks. */
export interface Load {
  name: string;
  /** The service, the ceiling, or the ceiling's floor (bare bytes from memory). */
  at: 'service' | 'ceiling' | 'floor';
  request:
    | 'storefront'
    | 'list'
    | 'order'
    | 'priced order'
    | 'scheduled order'
    | 'scheduled menu order for now'
    | 'card order'
    | 'login'
    | 'long tail'
    | 'hot long tail'
    | 'sales report'
    | 'items report';
  /** Accept-Encoding as browsers send it, or If-None-Match with the current ETag of the URL. */
  headers?: 'gzip' | 'if-none-match';
}

/** Another row's measured load, by row id. */
export interface RowRef {
  row: string;
  side: 'service' | 'ceiling';
}

export interface Scenario {
  /** The row's id in the table. */
  id: string;
  /** The BENCH_ONLY name that selects it. */
  only: 'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6' | 'P7' | 'P8';
  title: string;
  /** The service run the row is measured and reported in. */
  phase: Phase;
  /** When the service load runs in an earlier phase than the row is reported. */
  serviceLoadedIn?: Phase;
  /** Read after the service's VmHWM for the RSS budget is taken (see harness.ts). */
  outsideRssBudget?: boolean;
  service?: Load;
  ceiling?: Load | RowRef;
  ceilingLabel?: string;
  /** Run the ceiling's load before the service's. */
  ceilingFirst?: boolean;
  /** What the ratio divides by: this row's ceiling, or another row's load. */
  ratioTo?: 'ceiling' | RowRef;
  ratioOf?: string;
  targetRatio?: number;
  targetP99Ms?: number;
  targetP50Ms?: number;
  expectedStatus?: number;
  /**
   * Measured on the tables as the seed left them, before the bench's ANALYZE:
   * no statistics, as after an import or on a server whose autovacuum is off
   * or behind. These rows run first in their phase.
   */
  unanalyzed?: boolean;
  /** Seed what the row reads before its service load. */
  prepare?: 'long tail' | 'report orders';
  /** A measure other than a load: P8's one download of the year's CSV. */
  measure?: 'csv export';
  /** Count stored orders around the service load and compare them with its 201 answers. */
  orderCheck?: { into: 'orderCheck' | 'cardOrderCheck'; logAs: string };
  /** Wait for the outbox to send the placed orders' mails after each load. */
  drainOutbox?: boolean;
}

const storefront = { request: 'storefront' } as const;

export const SCENARIOS: Scenario[] = [
  {
    id: 'P1',
    only: 'P1',
    title: 'P1 storefront, 1000 items with 2 option groups each (cache off)',
    phase: 'cache off',
    service: { name: 'P1 service', at: 'service', ...storefront },
    ceiling: { name: 'P1 ceiling', at: 'ceiling', ...storefront },
    ratioTo: 'ceiling',
    targetRatio: 3,
    targetP99Ms: 500,
  },
  {
    // What answering with these bytes costs at all on this machine (see ceiling.ts).
    id: 'P1 floor',
    only: 'P1',
    title: 'P1 floor: the same answer written from memory by bare node:http',
    phase: 'cache off',
    ceiling: { name: 'P1 floor', at: 'floor', ...storefront },
    ceilingLabel: 'floor',
  },
  {
    // A client that holds the current answer: If-None-Match with its ETag, answered 304.
    id: 'P1 conditional',
    only: 'P1',
    title: 'P1 storefront, If-None-Match with the current ETag (304, cache off)',
    phase: 'cache off',
    service: {
      name: 'P1 service, If-None-Match',
      at: 'service',
      ...storefront,
      headers: 'if-none-match',
    },
    expectedStatus: 304,
  },
  {
    // The same page right after the seed, before any ANALYZE: its plan must not need statistics.
    id: 'P2 unanalyzed',
    only: 'P2',
    title: 'P2 list, 100 per page by sort_position, tables NOT analyzed (no statistics)',
    phase: 'cache off',
    unanalyzed: true,
    service: { name: 'P2 service, tables not analyzed', at: 'service', request: 'list' },
    ratioTo: { row: 'P2', side: 'service' },
    ratioOf: 'P2 on analyzed tables',
    targetRatio: 0.9,
  },
  {
    id: 'P2',
    only: 'P2',
    title: 'P2 list, 100 per page by sort_position, tables analyzed',
    phase: 'cache off',
    service: { name: 'P2 service', at: 'service', request: 'list' },
    ceiling: { name: 'P2 ceiling', at: 'ceiling', request: 'list' },
    ratioTo: 'ceiling',
    targetRatio: 1.5,
  },
  {
    // A client that holds the current page: If-None-Match with its ETag, answered 304.
    id: 'P2 conditional',
    only: 'P2',
    title: 'P2 list, If-None-Match with the current ETag (304), tables analyzed',
    phase: 'cache off',
    service: {
      name: 'P2 service, If-None-Match',
      at: 'service',
      request: 'list',
      headers: 'if-none-match',
    },
    expectedStatus: 304,
    ratioTo: { row: 'P2', side: 'ceiling' },
    ratioOf: 'the P2 ceiling',
    targetRatio: 5,
  },
  {
    // The ceiling first, and its mails sent by the service's outbox worker
    // before the service's own run starts, so neither run pays for the other.
    id: 'P3',
    only: 'P3',
    title: 'P3 order, 5 lines with options, unique Idempotency-Key',
    phase: 'cache off',
    service: { name: 'P3 service', at: 'service', request: 'order' },
    ceiling: { name: 'P3 ceiling', at: 'ceiling', request: 'order' },
    ceilingFirst: true,
    ratioTo: 'ceiling',
    targetRatio: 1,
    orderCheck: { into: 'orderCheck', logAs: 'orders stored by the service run' },
    drainOutbox: true,
  },
  {
    // The same placement priced in lines: the code's row is locked in every
    // order's transaction, so this row shows what pricing and that lock cost.
    id: 'P3 priced',
    only: 'P3',
    title: 'P3 order, 5 lines, with VAT, a dine-in service charge and a discount code',
    phase: 'cache off',
    service: { name: 'P3 priced service', at: 'service', request: 'priced order' },
    ceiling: { row: 'P3', side: 'service' },
    ceilingLabel: 'P3 service (no pricing)',
    ratioTo: 'ceiling',
    drainOutbox: true,
  },
  {
    // Orders for later: every placement takes its slot's row lock (an upsert
    // that counts the slot against its cap) inside the order's transaction.
    // Measured against the same orders for now on the same menu, which take
    // no slot, so the ratio is the lock's cost alone.
    id: 'P3s',
    only: 'P3',
    title: 'P3s order for later, 5 lines, in 20 slots of 5 minutes capped at 10000',
    phase: 'cache off',
    service: { name: 'P3s service', at: 'service', request: 'scheduled order' },
    ceiling: {
      name: 'P3s same orders for now',
      at: 'service',
      request: 'scheduled menu order for now',
    },
    ceilingLabel: 'service, the same orders for now',
    ceilingFirst: true,
    ratioTo: 'ceiling',
    drainOutbox: true,
  },
  {
    id: 'P5',
    only: 'P5',
    title: 'P5 card order, 5 lines, opening a Paystack checkout (fake, answers at once)',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P5 service', at: 'service', request: 'card order' },
    ceiling: { row: 'P3', side: 'service' },
    ceilingLabel: 'P3 service (cash)',
    ratioTo: 'ceiling',
    orderCheck: { into: 'cardOrderCheck', logAs: 'orders stored' },
    drainOutbox: true,
  },
  {
    id: 'P4',
    only: 'P4',
    title: 'P4 login (argon2id), reported only',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P4 service', at: 'service', request: 'login' },
  },
  {
    id: 'P1 cached',
    only: 'P1',
    title: 'P1 storefront, default cache (2 s)',
    phase: 'default cache',
    service: { name: 'P1 service, default cache', at: 'service', ...storefront },
    ratioTo: { row: 'P1', side: 'ceiling' },
    targetP99Ms: 50,
  },
  {
    // The same request as a browser sends it: the other rows ask for no compression.
    id: 'P1 cached gzip',
    only: 'P1',
    title: 'P1 storefront, default cache, Accept-Encoding: gzip (as browsers send)',
    phase: 'default cache',
    service: {
      name: 'P1 service, default cache, gzip',
      at: 'service',
      ...storefront,
      headers: 'gzip',
    },
    ceiling: { name: 'P1 floor, gzip', at: 'floor', ...storefront, headers: 'gzip' },
    ceilingLabel: 'floor, gzip',
    targetP99Ms: 50,
  },
  {
    // One hot 60-item storefront, always in the cache, against reads spread over all of them.
    id: 'P6',
    only: 'P6',
    title: `P6 long tail: ${LONG_TAIL_BUSINESSES} storefronts of 60 items at random, default cache, gzip`,
    phase: 'default cache',
    service: { name: 'P6 service, default cache', at: 'service', request: 'long tail' },
    ceiling: {
      name: 'P6 single hot storefront, default cache',
      at: 'service',
      request: 'hot long tail',
    },
    ceilingLabel: 'one hot storefront',
    ceilingFirst: true,
    ratioTo: 'ceiling',
    targetRatio: 0.8,
    ratioOf: 'the single hot storefront',
  },
  {
    id: 'P6 cache off',
    only: 'P6',
    title: `P6 long tail: ${LONG_TAIL_BUSINESSES} storefronts of 60 items at random, cache off, gzip`,
    phase: 'default cache',
    serviceLoadedIn: 'cache off',
    outsideRssBudget: true,
    prepare: 'long tail',
    service: { name: 'P6 service, cache off', at: 'service', request: 'long tail' },
    ceiling: { row: 'P6', side: 'ceiling' },
    ceilingLabel: 'one hot storefront',
    ratioTo: 'ceiling',
    ratioOf: 'the single hot storefront',
  },
  {
    // One connection: the time one report takes, not the time it waits behind others.
    id: 'P7 sales',
    only: 'P7',
    title: 'P7 sales report of a year by day, 200,000 orders (one connection)',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    service: { name: 'P7 sales report', at: 'service', request: 'sales report' },
    targetP50Ms: 300,
  },
  {
    id: 'P7 items',
    only: 'P7',
    title: 'P7 items report of a year, 200,000 orders (one connection)',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    service: { name: 'P7 items report', at: 'service', request: 'items report' },
    targetP50Ms: 300,
  },
  {
    id: 'P8',
    only: 'P8',
    title: 'P8 CSV of a year, 200,000 orders: rows a second and VmRSS growth while streaming',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    measure: 'csv export',
  },
];

/** What the requests of a load need to know about this run. */
export interface RequestContext {
  bases: Record<Load['at'], string>;
  apiKey: string;
  seeded: Seeded;
  /** The current ETag of the load's URL, for 'if-none-match' loads. */
  etag?: string;
}

export type Request = Omit<
  LoadSpec,
  'name' | 'warmupSeconds' | 'durationSeconds' | 'keyPrefix' | 'connections'
> &
  Partial<Pick<LoadSpec, 'connections'>>;

export function requestOf(load: Load, context: RequestContext): Request {
  const base = context.bases[load.at];
  const paths = pathsOf(context.seeded);
  const key = { 'x-api-key': context.apiKey };
  const json = { ...key, 'content-type': 'application/json' };
  const headers =
    load.headers === 'gzip'
      ? { ...key, 'accept-encoding': 'gzip, deflate, br' }
      : load.headers === 'if-none-match'
        ? { ...key, 'if-none-match': context.etag! }
        : key;
  const get = { method: 'GET' as const, headers, idempotencyKeys: false };
  const place = { method: 'POST' as const, headers: json, idempotencyKeys: true };
  const browser = { ...key, 'accept-encoding': 'gzip, deflate, br' };
  const longTail = Array.from({ length: LONG_TAIL_BUSINESSES }, (_, i) =>
    longTailStorefront(NS, i),
  );
  switch (load.request) {
    case 'storefront':
      return { ...get, url: base + paths.storefront };
    case 'list':
      return { ...get, url: base + paths.list };
    case 'order':
      return { ...place, bodies: orderBodies(context.seeded), url: base + paths.order };
    case 'priced order':
      return { ...place, bodies: pricedOrderBodies(context.seeded), url: base + paths.order };
    case 'scheduled order':
    case 'scheduled menu order for now':
      return {
        ...place,
        bodies: scheduledOrderBodies(context.seeded.scheduled, load.request === 'scheduled order'),
        url: base + paths.order,
      };
    case 'card order':
      return { ...place, bodies: orderBodies(context.seeded, 'paystack'), url: base + paths.order };
    case 'login':
      return {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          email: context.seeded.ownerEmail,
          password: context.seeded.ownerPassword,
        }),
        idempotencyKeys: false,
        url: base + paths.login,
      };
    case 'long tail':
      return { ...get, headers: browser, url: base + longTail[0], paths: longTail };
    case 'hot long tail':
      return { ...get, headers: browser, url: base + longTail[0] };
    case 'sales report':
    case 'items report': {
      const what = load.request === 'sales report' ? 'sales' : 'items';
      const owner = { ...key, authorization: `Bearer ${context.seeded.token}` };
      return {
        ...get,
        headers: owner,
        connections: 1,
        url: base + reportPath(NS, context.seeded, what),
      };
    }
  }
}

/** The ETag the service answers the load's URL with now, for its If-None-Match. */
export async function currentEtag(load: Load, context: RequestContext): Promise<string> {
  const { url, headers } = requestOf({ ...load, headers: undefined }, context);
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const etag = res.headers.get('etag');
  if (!etag) throw new Error(`the ${load.request} answer has no ETag`);
  return etag;
}

interface Paths {
  storefront: string;
  list: string;
  order: string;
  login: string;
}

export function pathsOf(seeded: Seeded): Paths {
  const core = `/public/api/v1/${NS}`;
  return {
    storefront: `${core}/storefront/${BUSINESS_META_KEY}/menu/${BIG_MENU_META_KEY}`,
    list:
      `${core}/smart-meta-manager/entity/${NS}_business_menu_item?parent_entity_type=${NS}_business_menu` +
      `&parent_entity_uuid=${seeded.bigMenuUuid}&per_page=100&sort_by=extra_data.sort_position&sort_order=asc`,
    order: `/plugins/${NS}/${NS}-init/order`,
    login: `${core}/user/login`,
  };
}

export function orderBodies(seeded: Seeded, paymentProcessor = 'cash'): string[] {
  const items = seeded.smallMenuItems;
  return items.map((_, start) => {
    const lines: Array<{ item: SeededItem; quantity: number }> = [];
    for (let i = 0; i < 5; i++) {
      const item = items[(start + i) % items.length];
      lines.push({ item, quantity: Math.min(item.minimum + (i % 2), item.maximum) });
    }
    const deltaCents = (line: number) =>
      chosenOptions(line).reduce((sum, choice) => {
        const group = OPTION_GROUPS.find((g) => g.key === choice.group)!;
        const option = group.options.find((o) => o.key === choice.option)!;
        return sum + Math.round(Number(option.price_delta) * 100);
      }, 0);
    const cents = lines.reduce(
      (sum, line, i) =>
        sum + (Math.round(Number(line.item.unitPrice) * 100) + deltaCents(i)) * line.quantity,
      0,
    );
    return JSON.stringify({
      menu_uuid: seeded.smallMenuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: paymentProcessor,
      customer_email_address: `guest${start}@example.test`,
      customer_phone_number: '+2348000000000',
      customer_requested_order_email_copy: false,
      general_note: 'No onions, please.',
      delivery_data: { delivery_identifier: '', delivery_address: '' },
      onpremise_data: {
        customer_onpremise_location_type: 'table',
        customer_onpremise_location_number: String(start % 20),
        customer_onpremise_location: `table_${start % 20}`,
      },
      cart_items: lines.map(({ item, quantity }, i) => ({
        uuid: item.uuid,
        quantity,
        item_note: '',
        options: chosenOptions(i),
      })),
    });
  });
}

/** Half away from zero, for the positive amounts of the bench: (numerator / denominator) in cents. */
function roundedCents(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Dine-in orders of 5 lines at the priced business with its code, their
 * amounts computed as the service prices them (integer cents, so exact):
 * 10 % off the items, 10 % service on the rest, 7.5 % VAT on both.
 */
export function pricedOrderBodies(seeded: Seeded): string[] {
  const items = seeded.priced.items;
  return items.map((_, start) => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      item: items[(start + i) % items.length],
      quantity: 1 + (i % 2),
    }));
    const subtotal = lines.reduce(
      (sum, line) => sum + Math.round(Number(line.item.unitPrice) * 100) * line.quantity,
      0,
    );
    const discount = roundedCents(subtotal * 10, 100);
    const service = roundedCents((subtotal - discount) * 10, 100);
    const tax = roundedCents((subtotal - discount + service) * 75, 1000);
    const cents = subtotal - discount + service + tax;
    return JSON.stringify({
      menu_uuid: seeded.priced.menuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: 'cash',
      customer_email_address: `guest${start}@example.test`,
      discount_code: DISCOUNT.code,
      onpremise_data: {
        customer_onpremise_location_type: 'table',
        customer_onpremise_location_number: String(start % 20),
        customer_onpremise_location: `table_${start % 20}`,
      },
      cart_items: lines.map(({ item, quantity }) => ({ uuid: item.uuid, quantity })),
    });
  });
}
