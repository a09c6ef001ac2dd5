/** The HTTP requests a scenario's load sends: URLs, headers and order bodies. */
import { NS, SERVICE_SECRET } from './bench-env';
import {
  BIG_MENU_META_KEY,
  BUSINESS_META_KEY,
  LANGUAGES_MENU_META_KEY,
  Seeded,
  SMALL_MENU_META_KEY,
} from './seed';
import { LONG_TAIL_BUSINESSES, longTailStorefront } from './seed-long-tail';
import { orderBodies, pricedOrderBodies } from './order-bodies';
import { reportPath } from './report-bench';
import { Load } from './scenario-types';
import { LoadSpec } from './types';
import { scheduledOrderBodies } from './seed-scheduled';
import { zoneOrderBodies } from './seed-zones';
import { stockOrderBodies } from './seed-stock';
import { tabRoundBodies } from './seed-tabs';
import { ussdChargePaths } from './seed-ussd';

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
    case 'languages storefront':
      // The menu's second language, asked as a link from a French page would ask it.
      return { ...get, url: `${base}${paths.languagesStorefront}?lang=fr` };
    case 'small storefront':
      // One reader at a time: the latency of a read, not of a queue.
      return { ...get, url: base + paths.smallStorefront, connections: 1 };
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
    case 'zoned order':
    case 'zoneless order':
      return {
        ...place,
        bodies: zoneOrderBodies(context.seeded.zones, load.request === 'zoned order'),
        url: base + paths.order,
      };
    case 'stocked order':
    case 'unstocked order':
    case 'hot stocked order': {
      const which =
        load.request === 'stocked order'
          ? 'stocked'
          : load.request === 'unstocked order'
            ? 'plain'
            : 'hot';
      return {
        ...place,
        bodies: stockOrderBodies(context.seeded.stock, which),
        url: base + paths.order,
      };
    }
    case 'card order':
      return { ...place, bodies: orderBodies(context.seeded, 'paystack'), url: base + paths.order };
    case 'tab round':
      return { ...place, bodies: tabRoundBodies(context.seeded.tabs!), url: base + paths.order };
    case 'ussd charge': {
      // Every request opens the first charge of an order of its own, in turn (seed-ussd.ts).
      const charges = ussdChargePaths(NS, context.seeded.ussd!, SERVICE_SECRET);
      return {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ channel: 'ussd', bank: '737' }),
        idempotencyKeys: false,
        url: base + charges[0],
        paths: charges,
        pathsInTurn: true,
      };
    }
    case 'kitchen acceptance':
    case 'plain acceptance': {
      // Every request accepts a pending order of its own, in turn (seed-kitchen.ts).
      const side = load.request === 'kitchen acceptance' ? 'kitchen' : 'plain';
      const orders = context.seeded.kitchen[side].pendingOrders;
      if (orders.length === 0) throw new Error(`no pending orders seeded for ${load.request}`);
      const owner = { ...json, authorization: `Bearer ${context.seeded.token}` };
      const updates = orders.map((uuid) => paths.orderUpdate + uuid);
      return {
        method: 'PUT',
        headers: owner,
        body: JSON.stringify({ status: 'accepted' }),
        idempotencyKeys: false,
        url: base + updates[0],
        paths: updates,
        pathsInTurn: true,
      };
    }
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
  smallStorefront: string;
  languagesStorefront: string;
  list: string;
  /** The owner's update of an order, its uuid to be appended. */
  orderUpdate: string;
  order: string;
  login: string;
}

export function pathsOf(seeded: Seeded): Paths {
  const core = `/public/api/v1/${NS}`;
  return {
    storefront: `${core}/storefront/${BUSINESS_META_KEY}/menu/${BIG_MENU_META_KEY}`,
    smallStorefront: `${core}/storefront/${BUSINESS_META_KEY}/menu/${SMALL_MENU_META_KEY}`,
    languagesStorefront: `${core}/storefront/${BUSINESS_META_KEY}/menu/${LANGUAGES_MENU_META_KEY}`,
    list:
      `${core}/smart-meta-manager/entity/${NS}_business_menu_item?parent_entity_type=${NS}_business_menu` +
      `&parent_entity_uuid=${seeded.bigMenuUuid}&per_page=100&sort_by=extra_data.sort_position&sort_order=asc`,
    order: `/plugins/${NS}/${NS}-init/order`,
    orderUpdate: `/plugins/${NS}/${NS}-init/admin/order/update/`,
    login: `${core}/user/login`,
  };
}
