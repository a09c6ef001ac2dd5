import {
  destination,
  haversineKm,
  LatLng,
  polygonBoundaryKm,
  polygonHolds,
  preparePolygon,
  ringFault,
} from './zone-geometry';

const RADIANS = Math.PI / 180;

type Ring = Array<[number, number]>;

/** A point just off the middle of edge `i` of a ring, `degrees` outwards (the ring counter-clockwise in (lng, lat)). */
function offEdge(ring: Ring, i: number, degrees: number): LatLng {
  const [aLat, aLng] = ring[i];
  const [bLat, bLng] = ring[(i + 1) % ring.length];
  const dx = bLng - aLng;
  const dy = bLat - aLat;
  const length = Math.hypot(dx, dy);
  // The outward normal of a counter-clockwise ring is (dy, -dx).
  return {
    lat: (aLat + bLat) / 2 + (-dx / length) * degrees,
    lng: (aLng + bLng) / 2 + (dy / length) * degrees,
  };
}

describe('great-circle distance', () => {
  it.each([
    ['one degree of the equator', { lat: 0, lng: 0 }, { lat: 0, lng: 1 }, 111.19508],
    ['one degree of a meridian', { lat: 6, lng: 3.4 }, { lat: 7, lng: 3.4 }, 111.19508],
    // Reference figures from the atan2 form of the great-circle distance (R = 6371.0088 km).
    [
      'Lekki Phase 1 to Accra, Osu',
      { lat: 6.4474, lng: 3.4722 },
      { lat: 5.556, lng: -0.182 },
      416.076,
    ],
    ['Accra to Nairobi', { lat: 5.556, lng: -0.182 }, { lat: -1.2921, lng: 36.8219 }, 4179.182],
  ])('%s', (_, a, b, km) => {
    expect(haversineKm(a, b)).toBeCloseTo(km, 2);
    expect(haversineKm(b, a)).toBeCloseTo(km, 2);
  });

  it('is 0 from a point to itself, and the destination formula is its inverse', () => {
    const lekki = { lat: 6.4474, lng: 3.4722 };
    expect(haversineKm(lekki, lekki)).toBe(0);
    for (const bearing of [0, 45, 90, 180, 270, 333]) {
      expect(haversineKm(lekki, destination(lekki, 5, bearing))).toBeCloseTo(5, 9);
    }
  });
});

// Counter-clockwise rings in (lng, lat), [lat, lng] pairs as a menu writes them.
/** Victoria Island, Lagos, as the example zone writes it. */
const VICTORIA_ISLAND: Ring = [
  [6.43, 3.4],
  [6.42, 3.44],
  [6.44, 3.43],
];
/** Around Tema, Accra: it straddles the prime meridian. */
const TEMA: Ring = [
  [5.62, -0.03],
  [5.62, 0.04],
  [5.7, 0.04],
  [5.7, -0.03],
];
/** An L around Westlands, Nairobi, south of the equator: the notch is outside. */
const WESTLANDS: Ring = [
  [-1.28, 36.79],
  [-1.28, 36.83],
  [-1.27, 36.83],
  [-1.27, 36.81],
  [-1.25, 36.81],
  [-1.25, 36.79],
];

describe('point in polygon, edges inside', () => {
  const cases: Array<[string, Ring, LatLng, boolean]> = [
    ['Victoria Island: inside', VICTORIA_ISLAND, { lat: 6.43, lng: 3.425 }, true],
    ['Victoria Island: a vertex', VICTORIA_ISLAND, { lat: 6.43, lng: 3.4 }, true],
    ['Victoria Island: middle of an edge', VICTORIA_ISLAND, offEdge(VICTORIA_ISLAND, 0, 0), true],
    [
      'Victoria Island: on a slanted edge, written in decimals',
      VICTORIA_ISLAND,
      { lat: 6.435, lng: 3.415 },
      true,
    ],
    [
      'Victoria Island: 0.1 mm outside an edge is on it',
      VICTORIA_ISLAND,
      offEdge(VICTORIA_ISLAND, 1, 5e-10),
      true,
    ],
    [
      'Victoria Island: 1 cm outside an edge',
      VICTORIA_ISLAND,
      offEdge(VICTORIA_ISLAND, 1, 1e-7),
      false,
    ],
    [
      'Victoria Island: 1 cm inside an edge',
      VICTORIA_ISLAND,
      offEdge(VICTORIA_ISLAND, 1, -1e-7),
      true,
    ],
    ['Victoria Island: Ikoyi, outside', VICTORIA_ISLAND, { lat: 6.4541, lng: 3.4347 }, false],
    ['Tema: inside, west of Greenwich', TEMA, { lat: 5.66, lng: -0.01 }, true],
    ['Tema: inside, east of Greenwich', TEMA, { lat: 5.66, lng: 0.01 }, true],
    ['Tema: on the western edge', TEMA, { lat: 5.65, lng: -0.03 }, true],
    ['Tema: on the northern edge at the meridian', TEMA, { lat: 5.7, lng: 0 }, true],
    ['Tema: the north-east corner', TEMA, { lat: 5.7, lng: 0.04 }, true],
    ['Tema: just past the eastern edge', TEMA, { lat: 5.66, lng: 0.0400001 }, false],
    ['Tema: level with a vertex, outside', TEMA, { lat: 5.62, lng: 0.05 }, false],
    ['Tema: Osu, Accra, outside', TEMA, { lat: 5.556, lng: -0.182 }, false],
    ['Westlands: in the long arm', WESTLANDS, { lat: -1.275, lng: 36.82 }, true],
    ['Westlands: in the short arm', WESTLANDS, { lat: -1.26, lng: 36.8 }, true],
    ['Westlands: in the notch, outside', WESTLANDS, { lat: -1.26, lng: 36.82 }, false],
    ['Westlands: on the notch’s inner corner', WESTLANDS, { lat: -1.27, lng: 36.81 }, true],
    ['Westlands: on the notch’s edge', WESTLANDS, { lat: -1.265, lng: 36.81 }, true],
    [
      'Westlands: level with the notch’s edge, outside',
      WESTLANDS,
      { lat: -1.27, lng: 36.84 },
      false,
    ],
    ['Westlands: Nairobi CBD, outside', WESTLANDS, { lat: -1.2864, lng: 36.8172 }, false],
  ];
  it.each(cases)('%s', (_, ring, point, inside) => {
    expect(polygonHolds(preparePolygon(ring), point)).toBe(inside);
  });

  it('reads a ring written closed like its open form', () => {
    const closed: Ring = [...TEMA, TEMA[0]];
    for (const [, , point, inside] of cases.filter(([, ring]) => ring === TEMA)) {
      expect(polygonHolds(preparePolygon(closed), point)).toBe(inside);
    }
  });
});

describe('distance to a polygon’s boundary', () => {
  it('measures to the nearest edge in km', () => {
    const tema = preparePolygon(TEMA);
    // Due north of the northern edge (lat 5.70) by 0.01 degree of latitude: 1.112 km.
    expect(polygonBoundaryKm(tema, { lat: 5.71, lng: 0 })).toBeCloseTo(1.112, 3);
    // Due east of the eastern edge by 0.01 degree of longitude at lat 5.66: 1.112 × cos(5.66°).
    expect(polygonBoundaryKm(tema, { lat: 5.66, lng: 0.05 })).toBeCloseTo(
      1.11195 * Math.cos(5.66 * RADIANS),
      3,
    );
    // Beyond a corner: to the corner itself.
    const corner = polygonBoundaryKm(tema, { lat: 5.71, lng: 0.05 });
    expect(corner).toBeCloseTo(haversineKm({ lat: 5.71, lng: 0.05 }, { lat: 5.7, lng: 0.04 }), 2);
  });
});

/** A star-shaped ring of `n` points around a centre: simple, however many points. */
function star(center: LatLng, n: number, radius = 0.05): Ring {
  return Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / n;
    const r = radius * (i % 2 ? 0.8 : 1);
    return [center.lat + r * Math.sin(angle), center.lng + r * Math.cos(angle)] as [number, number];
  });
}

describe('a ring that crosses itself', () => {
  const cases: Array<[string, Ring, ReturnType<typeof ringFault>]> = [
    ['a triangle', VICTORIA_ISLAND, null],
    ['an L', WESTLANDS, null],
    ['a square written closed', [...TEMA, TEMA[0]], null],
    ['a square written clockwise', [...TEMA].reverse(), null],
    ['500 points around Lekki', star({ lat: 6.4474, lng: 3.4722 }, 500), null],
    [
      'a bow tie',
      [
        [5.62, -0.03],
        [5.7, 0.04],
        [5.62, 0.04],
        [5.7, -0.03],
      ],
      { kind: 'crossing', edges: [0, 2] },
    ],
    [
      'a point repeated right after itself',
      [
        [6.43, 3.4],
        [6.42, 3.44],
        [6.42, 3.44],
        [6.44, 3.43],
      ],
      { kind: 'repeated point', point: 2 },
    ],
    [
      'three points on one line',
      [
        [6.43, 3.4],
        [6.44, 3.41],
        [6.45, 3.42],
      ],
      { kind: 'crossing', edges: [1, 2] },
    ],
    [
      'an edge that folds back over the one before it',
      [
        [-1.28, 36.79],
        [-1.28, 36.83],
        [-1.28, 36.81],
        [-1.25, 36.81],
      ],
      { kind: 'crossing', edges: [0, 1] },
    ],
    [
      'a vertex on another edge',
      [
        [-1.28, 36.79],
        [-1.28, 36.83],
        [-1.25, 36.83],
        [-1.28, 36.81],
        [-1.25, 36.79],
      ],
      // Point 3 lies on edge 0; edge 3 starts there.
      { kind: 'crossing', edges: [0, 3] },
    ],
    [
      'a vertex visited twice (a figure of eight pinched at one point)',
      [
        [6.43, 3.4],
        [6.44, 3.41],
        [6.43, 3.42],
        [6.42, 3.43],
        [6.44, 3.43],
        [6.43, 3.42],
        [6.42, 3.41],
      ],
      // Point 2 is point 5 again: edge 1 ends there, edge 5 starts there.
      { kind: 'crossing', edges: [1, 5] },
    ],
    [
      'two edges overlapping along one line',
      [
        [5.62, -0.03],
        [5.62, 0.04],
        [5.7, 0.04],
        [5.62, 0.02],
        [5.62, 0.0],
        [5.7, -0.03],
      ],
      // Edge 3 lies along edge 0; edge 4 starts on it.
      { kind: 'crossing', edges: [0, 4] },
    ],
    ['two points', VICTORIA_ISLAND.slice(0, 2), { kind: 'too few points' }],
  ];
  it.each(cases)('%s', (_, ring, fault) => {
    expect(ringFault(ring)).toEqual(fault);
  });

  it('finds the one crossing of 500 points', () => {
    const ring = star({ lat: 5.6, lng: -0.18 }, 500);
    // Swap two far-apart vertices: the ring now crosses itself.
    [ring[10], ring[260]] = [ring[260], ring[10]];
    expect(ringFault(ring)).toMatchObject({ kind: 'crossing' });
  });
});

describe('the slabs of a prepared polygon', () => {
  /** Every edge, no index: the reference the prepared test must agree with. */
  function reference(ring: Ring, point: LatLng): boolean {
    const n = ring.length;
    let inside = false;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const [ay, ax] = ring[j];
      const [by, bx] = ring[i];
      const dx = bx - ax;
      const dy = by - ay;
      const t = Math.max(
        0,
        Math.min(1, ((point.lng - ax) * dx + (point.lat - ay) * dy) / (dx * dx + dy * dy)),
      );
      if (Math.hypot(ax + t * dx - point.lng, ay + t * dy - point.lat) <= 1e-9) return true;
      if (ay > point.lat !== by > point.lat && point.lng < ax + ((point.lat - ay) * dx) / dy)
        inside = !inside;
    }
    return inside;
  }

  it('answer as testing every edge would, inside, outside and on vertices', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const rings: Ring[] = [
      star({ lat: -1.2676, lng: 36.8108 }, 500),
      star({ lat: 5.6, lng: -0.01 }, 37, 0.2),
      WESTLANDS,
      VICTORIA_ISLAND,
    ];
    for (const ring of rings) {
      const prepared = preparePolygon(ring);
      const points: LatLng[] = ring.map(([lat, lng]) => ({ lat, lng }));
      for (let k = 0; k < 2000; k++) {
        points.push({
          lat: prepared.minY - 0.01 + random() * (prepared.maxY - prepared.minY + 0.02),
          lng: prepared.minX - 0.01 + random() * (prepared.maxX - prepared.minX + 0.02),
        });
      }
      const disagreements = points.filter(
        (point) => polygonHolds(prepared, point) !== reference(ring, point),
      );
      expect(disagreements).toEqual([]);
    }
  });
});
