/*
 * The geometry of delivery zones, on coordinates in degrees: great-circle
 * distance for a radius, polygons whose edges are straight lines in
 * (latitude, longitude), and whether a polygon's ring crosses itself.
 *
 * Coordinates are written in decimals and read as binary doubles, so a point
 * written "on" an edge is almost never exactly on it: whatever lies within
 * EDGE_TOLERANCE_DEGREES of an edge counts as on the edge (a point there is
 * inside the polygon; a vertex there makes the ring touch itself).
 */

/** The mean radius of the Earth (IUGG), in km. */
export const EARTH_RADIUS_KM = 6371.0088;

/** About 0.1 mm on the ground: closer than this to an edge is on it. */
export const EDGE_TOLERANCE_DEGREES = 1e-9;

/** A point on a circle to within a millimetre is on it. */
export const RADIUS_TOLERANCE_KM = 1e-6;

const TOLERANCE_SQUARED = EDGE_TOLERANCE_DEGREES * EDGE_TOLERANCE_DEGREES;
const RADIANS = Math.PI / 180;

export interface LatLng {
  lat: number;
  lng: number;
}

/** Great-circle distance by the haversine formula, in km. */
export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RADIANS;
  const dLng = (b.lng - a.lng) * RADIANS;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * RADIANS) * Math.cos(b.lat * RADIANS) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point `km` from `from` along the initial bearing `degrees`, on the same sphere. */
export function destination(from: LatLng, km: number, degrees: number): LatLng {
  const d = km / EARTH_RADIUS_KM;
  const bearing = degrees * RADIANS;
  const lat1 = from.lat * RADIANS;
  const lng1 = from.lng * RADIANS;
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing),
  );
  const lng2 =
    lng1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { lat: lat2 / RADIANS, lng: lng2 / RADIANS };
}

/**
 * A polygon prepared once for many tests: its vertices as two typed arrays
 * (x = longitude, y = latitude), its bounding box, and its edges filed by
 * horizontal slab (edge `i` joins vertex `i - 1` to vertex `i`), so a test
 * looks only at the few edges level with the point.
 */
export interface PreparedPolygon {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
  /** Slab `k` covers latitudes from minY + k × slabHeight; its edges are slabEdges[slabStart[k] … slabStart[k + 1]). */
  readonly slabHeight: number;
  readonly slabStart: Int32Array;
  readonly slabEdges: Int32Array;
}

function slabOf(polygon: Pick<PreparedPolygon, 'minY' | 'slabHeight' | 'slabStart'>, y: number) {
  const last = polygon.slabStart.length - 2;
  const k = Math.floor((y - polygon.minY) / polygon.slabHeight);
  return k < 0 ? 0 : k > last ? last : k;
}

/** `points` are `[lat, lng]` pairs, the ring closed implicitly (a repeated first point is dropped). */
export function preparePolygon(points: ReadonlyArray<readonly [number, number]>): PreparedPolygon {
  const ring = withoutClosingPoint(points);
  const n = ring.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  ring.forEach(([lat, lng], i) => {
    xs[i] = lng;
    ys[i] = lat;
    minX = Math.min(minX, lng);
    maxX = Math.max(maxX, lng);
    minY = Math.min(minY, lat);
    maxY = Math.max(maxY, lat);
  });
  // About √n slabs: a point is tested against some √n edges instead of n.
  const slabs = Math.max(1, Math.ceil(Math.sqrt(n)));
  const slabHeight = Math.max((maxY - minY) / slabs, Number.MIN_VALUE);
  const frame = { minY, slabHeight, slabStart: new Int32Array(slabs + 1) };
  const spans: Array<[number, number]> = [];
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const low = slabOf(frame, Math.min(ys[i], ys[j]) - EDGE_TOLERANCE_DEGREES);
    const high = slabOf(frame, Math.max(ys[i], ys[j]) + EDGE_TOLERANCE_DEGREES);
    spans.push([low, high]);
    for (let k = low; k <= high; k++) frame.slabStart[k + 1]++;
  }
  for (let k = 0; k < slabs; k++) frame.slabStart[k + 1] += frame.slabStart[k];
  const slabEdges = new Int32Array(frame.slabStart[slabs]);
  const fill = frame.slabStart.slice(0, slabs);
  spans.forEach(([low, high], i) => {
    for (let k = low; k <= high; k++) slabEdges[fill[k]++] = i;
  });
  const { slabStart } = frame;
  return { xs, ys, minX, maxX, minY, maxY, slabHeight, slabStart, slabEdges };
}

/** A ring written closed, GeoJSON-style (last point = first), without its closing point. */
export function withoutClosingPoint<T extends readonly [number, number]>(
  points: readonly T[],
): readonly T[] {
  const first = points[0];
  const last = points[points.length - 1];
  return points.length > 3 && first[0] === last[0] && first[1] === last[1]
    ? points.slice(0, -1)
    : points;
}

/** Squared planar distance from (px, py) to the segment (ax, ay)–(bx, by). */
function segmentDistanceSquared(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length = dx * dx + dy * dy;
  let t = length === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / length;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Whether the polygon holds the point: inside, or on an edge (within the
 * tolerance). Crossings of a ray are counted half-open, so a ray through a
 * vertex counts once.
 */
export function polygonHolds(polygon: PreparedPolygon, point: LatLng): boolean {
  const x = point.lng;
  const y = point.lat;
  const tol = EDGE_TOLERANCE_DEGREES;
  if (
    x < polygon.minX - tol ||
    x > polygon.maxX + tol ||
    y < polygon.minY - tol ||
    y > polygon.maxY + tol
  ) {
    return false;
  }
  const { xs, ys, slabEdges } = polygon;
  const n = xs.length;
  const slab = slabOf(polygon, y);
  const below = y - tol;
  const above = y + tol;
  let inside = false;
  // Only the edges filed in the point's slab can hold it or cross its ray.
  for (let e = polygon.slabStart[slab], end = polygon.slabStart[slab + 1]; e < end; e++) {
    const i = slabEdges[e];
    const j = i === 0 ? n - 1 : i - 1;
    const ay = ys[j];
    const by = ys[i];
    if ((ay < below && by < below) || (ay > above && by > above)) continue;
    const ax = xs[j];
    const bx = xs[i];
    if (
      x >= Math.min(ax, bx) - tol &&
      x <= Math.max(ax, bx) + tol &&
      segmentDistanceSquared(x, y, ax, ay, bx, by) <= TOLERANCE_SQUARED
    ) {
      return true;
    }
    if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
  }
  return inside;
}

/**
 * Distance in km from a point to the polygon's boundary, the edges taken
 * straight in (lat, lng): measured in the plane of an equirectangular
 * projection centred on the point (linear in lat and lng, so the edges stay
 * straight), which is exact enough at a city's scale.
 */
export function polygonBoundaryKm(polygon: PreparedPolygon, point: LatLng): number {
  const kmPerDegree = EARTH_RADIUS_KM * RADIANS;
  const scaleX = Math.cos(point.lat * RADIANS) * kmPerDegree;
  const { xs, ys } = polygon;
  const n = xs.length;
  let best = Infinity;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const d = segmentDistanceSquared(
      0,
      0,
      (xs[j] - point.lng) * scaleX,
      (ys[j] - point.lat) * kmPerDegree,
      (xs[i] - point.lng) * scaleX,
      (ys[i] - point.lat) * kmPerDegree,
    );
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}

/** Twice the signed area of the triangle a, b, c (positive when counter-clockwise). */
function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Why a ring is not a simple polygon, naming points and edges by their 0-based index. */
export type RingFault =
  | { kind: 'repeated point'; point: number }
  | { kind: 'too few points' }
  | { kind: 'crossing'; edges: [number, number] };

interface Edge {
  index: number;
  ax: number;
  ay: number;
  bx: number;
  by: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** Whether two edges that share no vertex meet (cross, touch or overlap, within the tolerance). */
function edgesMeet(e: Edge, f: Edge): boolean {
  if (
    segmentDistanceSquared(f.ax, f.ay, e.ax, e.ay, e.bx, e.by) <= TOLERANCE_SQUARED ||
    segmentDistanceSquared(f.bx, f.by, e.ax, e.ay, e.bx, e.by) <= TOLERANCE_SQUARED ||
    segmentDistanceSquared(e.ax, e.ay, f.ax, f.ay, f.bx, f.by) <= TOLERANCE_SQUARED ||
    segmentDistanceSquared(e.bx, e.by, f.ax, f.ay, f.bx, f.by) <= TOLERANCE_SQUARED
  ) {
    return true;
  }
  // No end is on the other edge: they meet only by crossing properly.
  const o1 = cross(e.ax, e.ay, e.bx, e.by, f.ax, f.ay);
  const o2 = cross(e.ax, e.ay, e.bx, e.by, f.bx, f.by);
  const o3 = cross(f.ax, f.ay, f.bx, f.by, e.ax, e.ay);
  const o4 = cross(f.ax, f.ay, f.bx, f.by, e.bx, e.by);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

/** Whether two consecutive edges (the end of `e` is the start of `f`) fold back onto each other. */
function foldsBack(e: Edge, f: Edge): boolean {
  // The shared vertex is e's end (f's start); either far end lying on the other edge is an overlap.
  return (
    segmentDistanceSquared(f.bx, f.by, e.ax, e.ay, e.bx, e.by) <= TOLERANCE_SQUARED ||
    segmentDistanceSquared(e.ax, e.ay, f.ax, f.ay, f.bx, f.by) <= TOLERANCE_SQUARED
  );
}

/**
 * Why the ring of `[lat, lng]` points is not a simple polygon, or null when
 * it is one. A ring written closed (last point = first) is read without its
 * closing point. Edge `i` joins point `i` to point `i + 1` (the last edge
 * joins the last point to the first). A simple polygon has at least 3
 * distinct points, no point repeated right after itself, consecutive edges
 * that do not fold back onto each other, and no two other edges that cross,
 * touch or overlap.
 *
 * Edges are swept in order of their smallest longitude and each is compared
 * only with the edges whose longitudes overlap its own, so an ordinary
 * polygon of 500 points costs a few thousand comparisons, not 125,000.
 */
export function ringFault(points: ReadonlyArray<readonly [number, number]>): RingFault | null {
  const ring = withoutClosingPoint(points);
  const n = ring.length;
  const same = (a: readonly [number, number], b: readonly [number, number]) =>
    segmentDistanceSquared(a[1], a[0], b[1], b[0], b[1], b[0]) <= TOLERANCE_SQUARED;
  for (let i = 0; i < n; i++) {
    if (n > 1 && same(ring[i], ring[(i + 1) % n]))
      return { kind: 'repeated point', point: (i + 1) % n };
  }
  if (n < 3) return { kind: 'too few points' };
  const edges: Edge[] = ring.map(([ay, ax], index) => {
    const [by, bx] = ring[(index + 1) % n];
    return {
      index,
      ax,
      ay,
      bx,
      by,
      minX: Math.min(ax, bx),
      maxX: Math.max(ax, bx),
      minY: Math.min(ay, by),
      maxY: Math.max(ay, by),
    };
  });
  for (const e of edges) {
    const next = edges[(e.index + 1) % n];
    if (foldsBack(e, next)) return { kind: 'crossing', edges: orderPair(e.index, next.index) };
  }
  const tol = EDGE_TOLERANCE_DEGREES;
  const sorted = [...edges].sort((a, b) => a.minX - b.minX);
  let active: Edge[] = [];
  for (const e of sorted) {
    active = active.filter((other) => other.maxX >= e.minX - tol);
    for (const other of active) {
      const gap = Math.abs(e.index - other.index);
      if (gap === 1 || gap === n - 1) continue;
      if (other.maxY < e.minY - tol || other.minY > e.maxY + tol) continue;
      if (edgesMeet(e, other)) return { kind: 'crossing', edges: orderPair(e.index, other.index) };
    }
    active.push(e);
  }
  return null;
}

function orderPair(a: number, b: number): [number, number] {
  return a < b ? [a, b] : [b, a];
}
