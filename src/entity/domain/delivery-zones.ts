import { Money } from '../../common/money';
import {
  haversineKm,
  LatLng,
  polygonBoundaryKm,
  polygonHolds,
  PreparedPolygon,
  preparePolygon,
  RADIUS_TOLERANCE_KM,
} from './zone-geometry';

/*
 * A menu's delivery zones as placement reads them: prepared once per menu
 * version (polygons as typed arrays with their bounding boxes, area names
 * folded), then asked which zone holds a guest's location.
 */

/** What a zone charges and promises. Amounts are decimal text, as written. */
export interface ZoneTerms {
  key: string;
  title: string;
  fee: string;
  minimumOrderAmount: string | null;
  freeAbove: string | null;
  etaMinutes: number | null;
}

export type DeliveryZone = ZoneTerms &
  (
    | { kind: 'radius'; center: LatLng; radiusKm: number }
    | { kind: 'polygon'; polygon: PreparedPolygon }
    | { kind: 'areas'; areas: ReadonlySet<string> }
  );

/** Where the guest wants the order: a point, an area's name, or both. */
export interface DeliveryLocation {
  point?: LatLng;
  area?: string;
}

/** Area names match without case or surrounding spaces. */
export function areaName(name: string): string {
  return name.trim().toLowerCase();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);
const amountText = (value: unknown): string | null =>
  typeof value === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(value) ? value : null;

function isPair(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && finite(value[0]) && finite(value[1]);
}

/** One stored zone, prepared; undefined when it does not read (it was checked when written). */
function readZone(value: unknown): DeliveryZone | undefined {
  if (!isObject(value) || typeof value.key !== 'string' || typeof value.title !== 'string') {
    return undefined;
  }
  const fee = amountText(value.fee);
  if (fee === null) return undefined;
  const terms: ZoneTerms = {
    key: value.key,
    title: value.title,
    fee,
    minimumOrderAmount: amountText(value.minimum_order_amount),
    freeAbove: amountText(value.free_above),
    etaMinutes: Number.isSafeInteger(value.eta_minutes) ? (value.eta_minutes as number) : null,
  };
  if (value.kind === 'radius') {
    const center = value.center;
    if (!isObject(center) || !finite(center.lat) || !finite(center.lng)) return undefined;
    if (!finite(value.radius_km)) return undefined;
    return {
      ...terms,
      kind: 'radius',
      center: { lat: center.lat, lng: center.lng },
      radiusKm: value.radius_km,
    };
  }
  if (value.kind === 'polygon') {
    const points = value.polygon;
    if (!Array.isArray(points) || points.length < 3 || !points.every(isPair)) return undefined;
    return { ...terms, kind: 'polygon', polygon: preparePolygon(points) };
  }
  if (value.kind === 'areas') {
    const names = value.areas;
    if (!Array.isArray(names)) return undefined;
    const areas = new Set(
      names.filter((name): name is string => typeof name === 'string').map(areaName),
    );
    return { ...terms, kind: 'areas', areas };
  }
  return undefined;
}

/**
 * The zones of a stored `fulfilment.delivery.zones`, in their order, ready
 * for lookups; null when there are none (delivery then works without zones).
 * The expensive checks (a polygon that crosses itself) ran when the menu was
 * written; a zone that does not read at all is left out.
 */
export function readDeliveryZones(value: unknown): DeliveryZone[] | null {
  if (!Array.isArray(value)) return null;
  const zones = value.map(readZone).filter((zone): zone is DeliveryZone => zone !== undefined);
  return zones.length ? zones : null;
}

/** Whether a zone holds the location: the point for a radius or a polygon, the area's name for areas. */
export function zoneHolds(zone: DeliveryZone, location: DeliveryLocation): boolean {
  switch (zone.kind) {
    case 'radius':
      return (
        location.point !== undefined &&
        haversineKm(location.point, zone.center) <= zone.radiusKm + RADIUS_TOLERANCE_KM
      );
    case 'polygon':
      return location.point !== undefined && polygonHolds(zone.polygon, location.point);
    case 'areas':
      return location.area !== undefined && zone.areas.has(areaName(location.area));
  }
}

/** The first zone in the menu's list that holds the location, or null: outside the delivery area. */
export function zoneFor(
  zones: readonly DeliveryZone[],
  location: DeliveryLocation,
): DeliveryZone | null {
  return zones.find((zone) => zoneHolds(zone, location)) ?? null;
}

/**
 * The radius or polygon zone whose boundary is nearest the point, with the
 * distance in km; null when there is no such zone. Asked only for a point
 * outside every zone (area zones have no boundary to measure).
 */
export function nearestZone(
  zones: readonly DeliveryZone[],
  point: LatLng,
): { zone: DeliveryZone; distanceKm: number } | null {
  let nearest: { zone: DeliveryZone; distanceKm: number } | null = null;
  for (const zone of zones) {
    const distanceKm =
      zone.kind === 'radius'
        ? Math.abs(haversineKm(point, zone.center) - zone.radiusKm)
        : zone.kind === 'polygon'
          ? polygonBoundaryKm(zone.polygon, point)
          : null;
    if (distanceKm !== null && (!nearest || distanceKm < nearest.distanceKm)) {
      nearest = { zone, distanceKm };
    }
  }
  return nearest;
}

/** What a delivery to a zone costs an order whose items come to `itemsSubtotal`. */
export interface DeliveryTerms {
  /** The zone's fee, or 0 once the items reach its `free_above` (inclusive). */
  fee: Money;
  /** The zone's minimum, else the delivery mode's; null for none. */
  minimum: Money | null;
  /** How far the items are below the minimum; 0 without one or once reached. */
  shortfall: Money;
  freeAbove: Money | null;
  etaMinutes: number | null;
}

export function deliveryTerms(
  zone: ZoneTerms,
  modeMinimum: Money | null,
  itemsSubtotal: Money,
): DeliveryTerms {
  const freeAbove = zone.freeAbove === null ? null : new Money(zone.freeAbove);
  const fee = freeAbove && itemsSubtotal.gte(freeAbove) ? new Money(0) : new Money(zone.fee);
  const written =
    zone.minimumOrderAmount === null ? modeMinimum : new Money(zone.minimumOrderAmount);
  const minimum = written && written.gt(0) ? written : null;
  const shortfall =
    minimum && itemsSubtotal.lt(minimum) ? minimum.minus(itemsSubtotal) : new Money(0);
  return { fee, minimum, shortfall, freeAbove, etaMinutes: zone.etaMinutes };
}

/** The 422 detail of a location outside every zone. */
export interface OutsideDetail {
  field: string;
  message: string;
  /** The radius or polygon zone whose boundary is nearest the point; null for an area alone. */
  nearest_zone: { key: string; title: string } | null;
  /** How far that boundary is, in km with 2 decimals. */
  distance_km?: string;
  [extra: string]: unknown;
}

/** Outside every zone: the detail names the nearest zone when the guest gave a point. */
export function outsideDetail(
  zones: readonly DeliveryZone[],
  location: DeliveryLocation,
  field: string,
): OutsideDetail {
  const nearest = location.point ? nearestZone(zones, location.point) : null;
  if (!nearest) {
    const what = location.area !== undefined ? `the area "${location.area.trim()}"` : 'this place';
    return {
      field,
      message: `outside the delivery area: ${what} is in no delivery zone of this menu`,
      nearest_zone: null,
    };
  }
  const km = nearest.distanceKm.toFixed(2);
  return {
    field,
    message: `outside the delivery area; the nearest zone is ${nearest.zone.title}, ${km} km away`,
    nearest_zone: { key: nearest.zone.key, title: nearest.zone.title },
    distance_km: km,
  };
}

export type ZoneQuote =
  { ok: true; zone: DeliveryZone; terms: DeliveryTerms } | { ok: false; detail: OutsideDetail };

/**
 * The zone a delivery goes to and its terms, or the 422 detail (on `field`)
 * of a location outside every zone. The same for placement, the order's
 * quote and the delivery quote.
 */
export function quoteZone(
  zones: readonly DeliveryZone[],
  location: DeliveryLocation,
  modeMinimum: Money | null,
  itemsSubtotal: Money,
  field: string,
): ZoneQuote {
  const zone = zoneFor(zones, location);
  if (!zone) return { ok: false, detail: outsideDetail(zones, location, field) };
  return { ok: true, zone, terms: deliveryTerms(zone, modeMinimum, itemsSubtotal) };
}

/**
 * The location a body gives (a delivery_data, or a delivery quote): a point
 * when it has both coordinates, an area when its name is not blank.
 */
export function locationOf(body: {
  latitude?: number | null;
  longitude?: number | null;
  area?: string | null;
}): DeliveryLocation {
  const location: DeliveryLocation = {};
  if (typeof body.latitude === 'number' && typeof body.longitude === 'number') {
    location.point = { lat: body.latitude, lng: body.longitude };
  }
  if (typeof body.area === 'string' && body.area.trim() !== '') location.area = body.area;
  return location;
}

/** The stored `fulfilment.delivery.zones` of a menu's `extra_data`, as written (undefined when absent). */
export function writtenZones(extraData: Record<string, unknown>): unknown {
  const fulfilment = extraData.fulfilment;
  if (!isObject(fulfilment) || !isObject(fulfilment.delivery)) return undefined;
  return fulfilment.delivery.zones;
}

/**
 * A menu's `extra_data` without `fulfilment.delivery.zones` (the same object
 * when it has none): what every reader but the zones' own needs, and what
 * the 64 KiB limit of `extra_data` counts (the zones have limits of their own).
 */
export function withoutZones(extraData: Record<string, unknown>): Record<string, unknown> {
  if (writtenZones(extraData) === undefined) return extraData;
  const fulfilment = extraData.fulfilment as Record<string, unknown>;
  const { zones: _zones, ...delivery } = fulfilment.delivery as Record<string, unknown>;
  return { ...extraData, fulfilment: { ...fulfilment, delivery } };
}
