/**
 * P11's data: one business with two menus of the same 20 items, one that
 * prices delivery by 50 zones of 500 points and one without zones, so the
 * row measures what the zones cost a placement and nothing else.
 *
 * The zones are the worst case for finding one: 49 bands of a ring around
 * the centre, each open on one side, so every band's bounding box holds the
 * guests' points but the band does not, and only the 50th zone, a disc,
 * holds them. Every placement therefore tests all 50 polygons edge by edge.
 */
import { destination, LatLng } from '../src/entity/domain/zone-geometry';
import { Api, SeededItem } from './seed';
import { seedPlainItems } from './seed-plain-items';
import { createBusiness, createMenu } from './seed-common';

export const ZONES_BUSINESS_META_KEY = 'bench-zones';
export const ZONE_ITEMS = 20;
export const ZONE_COUNT = 50;
export const ZONE_POINTS = 500;
/** Victoria Island, Lagos. */
const CENTER: LatLng = { lat: 6.4281, lng: 3.4219 };
const ZONE_FEE_CENTS = 150_000;

export interface SeededZones {
  zonedMenuUuid: string;
  plainMenuUuid: string;
  /** The same items' prices on both menus. */
  zonedItems: SeededItem[];
  plainItems: SeededItem[];
}

const rounded = (value: number) => Math.round(value * 1e6) / 1e6;
const pointAt = (km: number, bearing: number): [number, number] => {
  const p = destination(CENTER, km, bearing);
  return [rounded(p.lat), rounded(p.lng)];
};

/** Band `i`: between two circles around the centre, over 300 of the 360 degrees. */
function band(i: number): Array<[number, number]> {
  const inner = 1 + 0.2 * i;
  const outer = inner + 0.1;
  const half = ZONE_POINTS / 2;
  const bearing = (k: number) => (300 * k) / (half - 1);
  return [
    ...Array.from({ length: half }, (_, k) => pointAt(outer, bearing(k))),
    ...Array.from({ length: half }, (_, k) => pointAt(inner, bearing(half - 1 - k))),
  ];
}

/** The last zone: a disc of 0.8 km around the centre. */
function disc(): Array<[number, number]> {
  return Array.from({ length: ZONE_POINTS }, (_, k) => pointAt(0.8, (360 * k) / ZONE_POINTS));
}

export function benchZones(): unknown[] {
  return Array.from({ length: ZONE_COUNT }, (_, i) => ({
    key: `zone-${i}`,
    title: `Zone ${i}`,
    kind: 'polygon',
    polygon: i === ZONE_COUNT - 1 ? disc() : band(i),
    fee: (ZONE_FEE_CENTS / 100).toFixed(2),
    eta_minutes: 40,
  }));
}

export async function seedZones(api: Api, token: string): Promise<SeededZones> {
  const business = await createBusiness(api, token, ZONES_BUSINESS_META_KEY, 'Bench Zoned Kitchen');
  const menu = (metaKey: string, zones: unknown[] | undefined) =>
    createMenu(api, token, business.uuid, metaKey, metaKey, {
      fulfilment: { modes: ['pickup', 'delivery'], delivery: zones ? { zones } : {} },
    });
  const zoned = await menu('zoned', benchZones());
  const plain = await menu('unzoned', undefined);
  const names = (metaKey: string) => ({ metaKey, title: 'Zoned dish' });
  return {
    zonedMenuUuid: zoned.uuid,
    plainMenuUuid: plain.uuid,
    zonedItems: await seedPlainItems(api, token, zoned.uuid, ZONE_ITEMS, names('zoned')),
    plainItems: await seedPlainItems(api, token, plain.uuid, ZONE_ITEMS, names('unzoned')),
  };
}

/**
 * Delivery orders of 5 lines, one body per item: to a point inside the last
 * zone (`zoned`, paying its fee) or, on the menu without zones, to the same
 * address alone (no fee). Otherwise the same bodies.
 */
export function zoneOrderBodies(seeded: SeededZones, zoned: boolean): string[] {
  const items = zoned ? seeded.zonedItems : seeded.plainItems;
  return items.map((_, start) => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      item: items[(start + i) % items.length],
      quantity: 1 + (i % 2),
    }));
    const cents =
      lines.reduce(
        (sum, line) => sum + Math.round(Number(line.item.unitPrice) * 100) * line.quantity,
        0,
      ) + (zoned ? ZONE_FEE_CENTS : 0);
    const point = destination(CENTER, 0.5 * ((start % 5) / 5), (start * 37) % 360);
    return JSON.stringify({
      menu_uuid: zoned ? seeded.zonedMenuUuid : seeded.plainMenuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: 'cash',
      customer_email_address: `guest${start}@example.test`,
      fulfilment_type: 'delivery',
      delivery_data: {
        delivery_address: `${start + 1} Adeola Odeku Street, Victoria Island`,
        ...(zoned ? { latitude: rounded(point.lat), longitude: rounded(point.lng) } : {}),
      },
      cart_items: lines.map(({ item, quantity }) => ({ uuid: item.uuid, quantity })),
    });
  });
}
