import { Response } from 'supertest';
import { destination, LatLng } from '../../src/entity/domain/zone-geometry';
import { guestHeaders } from './order';
import { TestApp } from './test-app';

export { destination };

/** Lekki Phase 1, Lagos: the centre of the radius zone. */
export const LEKKI = { lat: 6.4474, lng: 3.4722 };
/** A point in Ajah, east of Lekki. */
export const AJAH = { lat: 6.4682, lng: 3.5852 };
/** Ikorodu, north of the lagoon: outside every zone. */
export const IKORODU = { lat: 6.6194, lng: 3.5105 };
/** Osu, Accra. */
export const OSU = { lat: 5.556, lng: -0.182 };
/** Westlands, Nairobi. */
export const WESTLANDS = { lat: -1.2676, lng: 36.8108 };

/**
 * A Lagos kitchen's zones, with one in Accra and one in Nairobi: a 3 km
 * radius around Lekki Phase 1 with a minimum, free delivery from 20000.00
 * and 45 minutes; a polygon from Lekki to Ajah after it (a point in both is
 * Lekki's); Victoria Island's triangle; Ikoyi and Obalende by name.
 */
export const LAGOS_ZONES = [
  {
    key: 'lekki',
    title: 'Lekki Phase 1',
    kind: 'radius',
    center: LEKKI,
    radius_km: 3,
    fee: '1500.00',
    minimum_order_amount: '5000.00',
    free_above: '20000.00',
    eta_minutes: 45,
  },
  {
    key: 'ajah',
    title: 'Lekki to Ajah',
    kind: 'polygon',
    polygon: [
      [6.42, 3.46],
      [6.48, 3.46],
      [6.48, 3.6],
      [6.42, 3.6],
    ],
    fee: '3000.00',
    free_above: '20000.00',
    eta_minutes: 70,
  },
  {
    key: 'vi',
    title: 'Victoria Island',
    kind: 'polygon',
    polygon: [
      [6.43, 3.4],
      [6.44, 3.43],
      [6.42, 3.44],
    ],
    fee: '2000.00',
  },
  { key: 'ikoyi', title: 'Ikoyi', kind: 'areas', areas: ['Ikoyi', 'Obalende'], fee: '2500.00' },
  { key: 'osu', title: 'Osu', kind: 'radius', center: OSU, radius_km: 2, fee: '30.00' },
  {
    key: 'westlands',
    title: 'Westlands',
    kind: 'polygon',
    polygon: [
      [-1.28, 36.79],
      [-1.28, 36.83],
      [-1.25, 36.83],
      [-1.25, 36.79],
    ],
    fee: '250.00',
  },
];

/** `POST /plugins/{ns}/{ns}-init/delivery/quote` as a guest. */
export function deliveryQuote(t: TestApp, body: Record<string, unknown>): Promise<Response> {
  return t.http.post(`${t.orders}/delivery/quote`).set(guestHeaders(t)).send(body);
}

/** The body's location fields for a point. */
export function at(point: LatLng): { latitude: number; longitude: number } {
  return { latitude: point.lat, longitude: point.lng };
}

/**
 * A simple ring of `points` points around `center`, `km` across at most,
 * its radius varying so no two rings are alike: for the limits (500 points).
 */
export function ringAround(center: LatLng, points: number, km: number): Array<[number, number]> {
  return Array.from({ length: points }, (_, i) => {
    const p = destination(center, km * (i % 2 ? 0.9 : 1), (360 * i) / points);
    return [p.lat, p.lng];
  });
}
