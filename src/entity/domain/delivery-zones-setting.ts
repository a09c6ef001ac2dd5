import { ErrorDetail } from '../../http/api-error';
import { amount, isPlainObject, SchemaObject } from '../extra-data';
import { ringFault } from './zone-geometry';

export const MAX_DELIVERY_ZONES = 50;
export const MIN_POLYGON_POINTS = 3;
export const MAX_POLYGON_POINTS = 500;
export const MAX_ZONE_AREAS = 200;
export const MIN_RADIUS_KM = 0.1;
export const MAX_RADIUS_KM = 100;
export const MAX_ETA_MINUTES = 1440;
export const ZONE_KINDS = ['radius', 'polygon', 'areas'] as const;

const ZONE_KEY = /^[a-z0-9_-]{1,64}$/;
const MAX_TEXT = 255;

type Faults = ErrorDetail[];

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function latitude(value: unknown, field: string, faults: Faults): void {
  if (!isNumber(value) || value < -90 || value > 90) {
    faults.push({ field, message: `${field} must be a latitude, a number from -90 to 90.` });
  }
}

function longitude(value: unknown, field: string, faults: Faults): void {
  if (!isNumber(value) || value < -180 || value > 180) {
    faults.push({ field, message: `${field} must be a longitude, a number from -180 to 180.` });
  }
}

function name(value: unknown, field: string, faults: Faults): void {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT) {
    faults.push({
      field,
      message: `${field} must be a non-blank string of at most ${MAX_TEXT} characters.`,
    });
  }
}

function radiusShape(zone: Record<string, unknown>, at: string, faults: Faults): void {
  const center = zone.center;
  if (!isPlainObject(center)) {
    faults.push({ field: `${at}.center`, message: `${at}.center must be an object {lat, lng}.` });
  } else {
    latitude(center.lat, `${at}.center.lat`, faults);
    longitude(center.lng, `${at}.center.lng`, faults);
  }
  const radius = zone.radius_km;
  if (!isNumber(radius) || radius < MIN_RADIUS_KM || radius > MAX_RADIUS_KM) {
    faults.push({
      field: `${at}.radius_km`,
      message: `${at}.radius_km must be a number of km from ${MIN_RADIUS_KM} to ${MAX_RADIUS_KM}.`,
    });
  }
}

function polygonShape(zone: Record<string, unknown>, at: string, faults: Faults): void {
  const field = `${at}.polygon`;
  const points = zone.polygon;
  if (
    !Array.isArray(points) ||
    points.length < MIN_POLYGON_POINTS ||
    points.length > MAX_POLYGON_POINTS + 1
  ) {
    faults.push({
      field,
      message: `${field} must be a list of ${MIN_POLYGON_POINTS} to ${MAX_POLYGON_POINTS} points [lat, lng].`,
    });
    return;
  }
  const before = faults.length;
  points.forEach((point: unknown, i) => {
    if (!Array.isArray(point) || point.length !== 2) {
      faults.push({
        field: `${field}[${i}]`,
        message: `${field}[${i}] must be a point [lat, lng].`,
      });
      return;
    }
    latitude(point[0], `${field}[${i}][0]`, faults);
    longitude(point[1], `${field}[${i}][1]`, faults);
  });
  if (faults.length > before) return;
  const ring = points as Array<[number, number]>;
  const fault = ringFault(ring);
  const closed =
    ring.length > 3 && ring[0][0] === ring.at(-1)![0] && ring[0][1] === ring.at(-1)![1];
  if (!fault && !closed && ring.length > MAX_POLYGON_POINTS) {
    faults.push({ field, message: `${field} must have at most ${MAX_POLYGON_POINTS} points.` });
  } else if (fault?.kind === 'too few points') {
    faults.push({
      field,
      message: `${field} must have at least ${MIN_POLYGON_POINTS} distinct points.`,
    });
  } else if (fault?.kind === 'repeated point') {
    faults.push({
      field,
      message: `${field} repeats a point: point ${fault.point} is the point before it.`,
      point: fault.point,
    });
  } else if (fault?.kind === 'crossing') {
    const [a, b] = fault.edges;
    faults.push({
      field,
      message: `${field} crosses itself: the edge from point ${a} and the edge from point ${b} meet.`,
      edges: fault.edges,
    });
  }
}

function areasShape(zone: Record<string, unknown>, at: string, faults: Faults): void {
  const field = `${at}.areas`;
  const areas = zone.areas;
  if (!Array.isArray(areas) || areas.length < 1 || areas.length > MAX_ZONE_AREAS) {
    faults.push({
      field,
      message: `${field} must be a list of 1 to ${MAX_ZONE_AREAS} area names.`,
    });
    return;
  }
  areas.forEach((area: unknown, i) => name(area, `${field}[${i}]`, faults));
}

/** One zone: its shape by kind, its key and title, and its terms; amounts stored as decimal text. */
function zone(value: unknown, at: string, keys: Set<string>, faults: Faults): unknown {
  if (!isPlainObject(value)) {
    faults.push({ field: at, message: `${at} must be an object.` });
    return value;
  }
  const result: Record<string, unknown> = { ...value };
  if (typeof value.key !== 'string' || !ZONE_KEY.test(value.key)) {
    faults.push({ field: `${at}.key`, message: `${at}.key must match ${ZONE_KEY.source}.` });
  } else if (keys.has(value.key)) {
    faults.push({
      field: `${at}.key`,
      message: `${at}.key "${value.key}" is used by another zone.`,
    });
  } else {
    keys.add(value.key);
  }
  name(value.title, `${at}.title`, faults);
  if (value.kind === 'radius') radiusShape(value, at, faults);
  else if (value.kind === 'polygon') polygonShape(value, at, faults);
  else if (value.kind === 'areas') areasShape(value, at, faults);
  else {
    faults.push({
      field: `${at}.kind`,
      message: `${at}.kind must be one of ${ZONE_KINDS.join(', ')}.`,
    });
  }
  const money = amount();
  if (value.fee === undefined || value.fee === null) {
    faults.push({ field: `${at}.fee`, message: `${at}.fee is required: the zone's delivery fee.` });
  } else {
    result.fee = money(value.fee, `${at}.fee`, faults);
  }
  for (const key of ['minimum_order_amount', 'free_above'] as const) {
    if (value[key] !== undefined && value[key] !== null) {
      result[key] = money(value[key], `${at}.${key}`, faults);
    }
  }
  const eta = value.eta_minutes;
  if (eta !== undefined && eta !== null) {
    if (!Number.isSafeInteger(eta) || (eta as number) < 0 || (eta as number) > MAX_ETA_MINUTES) {
      faults.push({
        field: `${at}.eta_minutes`,
        message: `${at}.eta_minutes must be a whole number from 0 to ${MAX_ETA_MINUTES}.`,
      });
    }
  }
  return result;
}

/**
 * `fulfilment.delivery.zones`: at most 50 zones with unique keys, each a
 * radius (`center: {lat, lng}`, `radius_km` 0.1–100), a polygon (3–500
 * points `[lat, lng]` whose ring does not cross, touch or overlap itself;
 * a ring written closed may repeat its first point at the end) or areas
 * (1–200 names), with its `fee`, and optionally `minimum_order_amount`,
 * `free_above` (non-negative decimal text) and `eta_minutes` (0–1440).
 * Each fault names its path, such as
 * `extra_data.fulfilment.delivery.zones[1].polygon`. Other keys are kept.
 */
// R78: delivery zones.
export function deliveryZones(value: unknown, field: string, faults: Faults): unknown {
  if (value === null) return value;
  if (!Array.isArray(value) || value.length > MAX_DELIVERY_ZONES) {
    faults.push({
      field,
      message: `${field} must be a list of at most ${MAX_DELIVERY_ZONES} zones.`,
    });
    return;
  }
  const keys = new Set<string>();
  return value.map((entry: unknown, i) => zone(entry, `${field}[${i}]`, keys, faults));
}

const point = { type: 'number', example: 6.4474 };
const amountSchema = amount().schema;

/** The OpenAPI description of the zones. */
export const DELIVERY_ZONES_SCHEMA: SchemaObject = {
  type: 'array',
  maxItems: MAX_DELIVERY_ZONES,
  description:
    'Delivery zones, tried in order: the first that holds the guest’s point (a radius, by ' +
    'great-circle distance; a polygon, its edges included) or names the guest’s area (without ' +
    'case or surrounding spaces) prices the delivery. Keys are unique.',
  items: {
    type: 'object',
    additionalProperties: true,
    required: ['key', 'title', 'kind', 'fee'],
    properties: {
      key: { type: 'string', pattern: ZONE_KEY.source, example: 'lekki' },
      title: { type: 'string', maxLength: MAX_TEXT, example: 'Lekki' },
      kind: { type: 'string', enum: [...ZONE_KINDS] },
      center: {
        type: 'object',
        description: 'For a radius: the centre.',
        properties: {
          lat: { ...point, minimum: -90, maximum: 90 },
          lng: { ...point, minimum: -180, maximum: 180, example: 3.4722 },
        },
      },
      radius_km: { type: 'number', minimum: MIN_RADIUS_KM, maximum: MAX_RADIUS_KM, example: 5 },
      polygon: {
        type: 'array',
        description:
          'For a polygon: its points [lat, lng]; edges are straight in (lat, lng); the ring may not cross itself.',
        minItems: MIN_POLYGON_POINTS,
        maxItems: MAX_POLYGON_POINTS + 1,
        items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'number' } },
        example: [
          [6.43, 3.4],
          [6.44, 3.43],
          [6.42, 3.44],
        ],
      },
      areas: {
        type: 'array',
        description: 'For areas: the names a guest may give.',
        minItems: 1,
        maxItems: MAX_ZONE_AREAS,
        items: { type: 'string', maxLength: MAX_TEXT },
        example: ['Ikoyi', 'Obalende'],
      },
      fee: { ...amountSchema, description: 'The delivery fee.' },
      minimum_order_amount: {
        ...amountSchema,
        description: 'The least the items may come to; without it, the delivery mode’s minimum.',
      },
      free_above: {
        ...amountSchema,
        description: 'From this items’ subtotal on (inclusive), the fee is 0.',
      },
      eta_minutes: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_ETA_MINUTES,
        description: 'Minutes from ready to delivered.',
      },
    },
  },
};
