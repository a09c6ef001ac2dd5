import { Money } from '../../common/money';
import { ErrorDetail } from '../../http/api-error';
import { deliveryZones } from './delivery-zones-setting';
import {
  DeliveryLocation,
  deliveryTerms,
  nearestZone,
  outsideDetail,
  readDeliveryZones,
  withoutZones,
  zoneFor,
} from './delivery-zones';
import { destination } from './zone-geometry';

const LEKKI_CENTER = { lat: 6.4474, lng: 3.4722 };
const OSU = { lat: 5.556, lng: -0.182 };
const WESTLANDS_CENTER = { lat: -1.2676, lng: 36.8108 };

/** A menu's zones across three cities, as an owner writes them. */
const WRITTEN = [
  {
    key: 'lekki',
    title: 'Lekki Phase 1',
    kind: 'radius',
    center: LEKKI_CENTER,
    radius_km: 3,
    fee: '1500.00',
    minimum_order_amount: '5000.00',
    free_above: '20000.00',
    eta_minutes: 45,
  },
  // Overlaps the Lekki radius: a point in both is Lekki's, the first in the list.
  {
    key: 'lekki-ajah',
    title: 'Lekki to Ajah',
    kind: 'polygon',
    polygon: [
      [6.42, 3.46],
      [6.48, 3.46],
      [6.48, 3.6],
      [6.42, 3.6],
    ],
    fee: '3000.00',
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
    eta_minutes: 30,
  },
];
const zones = readDeliveryZones(WRITTEN)!;

describe('which zone holds a place: the first in the list', () => {
  const cases: Array<[string, DeliveryLocation, string | null]> = [
    ['Lekki’s centre', { point: LEKKI_CENTER }, 'lekki'],
    ['1 km east of Lekki’s centre', { point: destination(LEKKI_CENTER, 1, 90) }, 'lekki'],
    ['on Lekki’s circle, due north', { point: destination(LEKKI_CENTER, 3, 0) }, 'lekki'],
    ['on Lekki’s circle, south-west', { point: destination(LEKKI_CENTER, 3, 225) }, 'lekki'],
    // North of the circle but inside the polygon after it: the polygon's.
    [
      '10 m past Lekki’s circle, in the Ajah polygon',
      { point: destination(LEKKI_CENTER, 3.01, 0) },
      'lekki-ajah',
    ],
    ['Ajah, only in the polygon', { point: { lat: 6.4682, lng: 3.5852 } }, 'lekki-ajah'],
    ['on the Ajah polygon’s eastern edge', { point: { lat: 6.45, lng: 3.6 } }, 'lekki-ajah'],
    ['just past the Ajah polygon’s eastern edge', { point: { lat: 6.45, lng: 3.60001 } }, null],
    ['Victoria Island, inside', { point: { lat: 6.43, lng: 3.425 } }, 'vi'],
    ['Victoria Island, on an edge', { point: { lat: 6.435, lng: 3.415 } }, 'vi'],
    ['Ikoyi by point: no point zone holds it', { point: { lat: 6.4541, lng: 3.4347 } }, null],
    ['Ikoyi by name', { area: 'Ikoyi' }, 'ikoyi'],
    ['Obalende in capitals with spaces', { area: '  OBALENDE ' }, 'ikoyi'],
    ['an unknown area', { area: 'Ikorodu' }, null],
    [
      'a point outside with a known area: the area’s zone',
      { point: { lat: 6.6, lng: 3.5 }, area: 'ikoyi' },
      'ikoyi',
    ],
    [
      'a point in Lekki with a known area: Lekki comes first',
      { point: LEKKI_CENTER, area: 'Ikoyi' },
      'lekki',
    ],
    ['Osu, Accra, west of Greenwich', { point: destination(OSU, 1.5, 300) }, 'osu'],
    ['on Osu’s circle', { point: destination(OSU, 2, 90) }, 'osu'],
    ['50 m past Osu’s circle', { point: destination(OSU, 2.05, 90) }, null],
    ['Westlands, Nairobi', { point: WESTLANDS_CENTER }, 'westlands'],
    ['on Westlands’ southern edge', { point: { lat: -1.28, lng: 36.8 } }, 'westlands'],
    ['Nairobi CBD, south of Westlands', { point: { lat: -1.2864, lng: 36.8172 } }, null],
    ['nothing given', {}, null],
  ];
  it.each(cases)('%s', (_, location, key) => {
    expect(zoneFor(zones, location)?.key ?? null).toBe(key);
  });

  it('takes the first zone whichever order the list has', () => {
    const reversed = readDeliveryZones([WRITTEN[1], WRITTEN[0]])!;
    expect(zoneFor(reversed, { point: LEKKI_CENTER })?.key).toBe('lekki-ajah');
    expect(zoneFor(zones, { point: LEKKI_CENTER })?.key).toBe('lekki');
  });
});

describe('the nearest zone of a place outside', () => {
  it.each([
    // Ikorodu, north of Lagos: nearest to the Ajah polygon's northern edge (lat 6.48).
    ['Ikorodu', { lat: 6.6194, lng: 3.5105 }, 'lekki-ajah', 15.5],
    // Ikoyi is 1.2 km west of the Lekki circle, 1.6 km north of Victoria Island's corner.
    ['Ikoyi', { lat: 6.4541, lng: 3.4347 }, 'lekki', 1.2],
    ['Accra Mall', { lat: 5.6215, lng: -0.1737 }, 'osu', 5.3],
    ['Nairobi CBD', { lat: -1.2864, lng: 36.8172 }, 'westlands', 0.71],
  ])('%s', (_, point, key, km) => {
    const nearest = nearestZone(zones, point)!;
    expect(nearest.zone.key).toBe(key);
    expect(nearest.distanceKm).toBeCloseTo(km, 0);
  });

  it('names it in the 422 detail for a point, and no zone for an area', () => {
    expect(
      outsideDetail(zones, { point: { lat: -1.2864, lng: 36.8172 } }, 'delivery_data'),
    ).toEqual({
      field: 'delivery_data',
      message: 'outside the delivery area; the nearest zone is Westlands, 0.71 km away',
      nearest_zone: { key: 'westlands', title: 'Westlands' },
      distance_km: '0.71',
    });
    expect(outsideDetail(zones, { area: ' Ikorodu ' }, 'delivery_data')).toEqual({
      field: 'delivery_data',
      message: 'outside the delivery area: the area "Ikorodu" is in no delivery zone of this menu',
      nearest_zone: null,
    });
  });
});

describe('what a zone charges', () => {
  const lekki = zones[0];
  const ajah = zones[1];
  const money = (text: string) => new Money(text);
  it.each([
    [
      'below the minimum',
      lekki,
      null,
      '4000.00',
      { fee: '1500', minimum: '5000', shortfall: '1000' },
    ],
    ['at the minimum', lekki, null, '5000.00', { fee: '1500', minimum: '5000', shortfall: '0' }],
    [
      'just below free_above',
      lekki,
      null,
      '19999.99',
      { fee: '1500', minimum: '5000', shortfall: '0' },
    ],
    [
      'at free_above (inclusive)',
      lekki,
      null,
      '20000.00',
      { fee: '0', minimum: '5000', shortfall: '0' },
    ],
    [
      'the zone’s minimum replaces the mode’s',
      lekki,
      '8000',
      '6000',
      { fee: '1500', minimum: '5000', shortfall: '0' },
    ],
    [
      'a zone without a minimum takes the mode’s',
      ajah,
      '8000',
      '6000',
      { fee: '3000', minimum: '8000', shortfall: '2000' },
    ],
    ['no minimum anywhere', ajah, null, '10', { fee: '3000', minimum: null, shortfall: '0' }],
  ])('%s', (_, zone, modeMinimum, subtotal, expected) => {
    const terms = deliveryTerms(zone, modeMinimum ? money(modeMinimum) : null, money(subtotal));
    expect({
      fee: terms.fee.toString(),
      minimum: terms.minimum?.toString() ?? null,
      shortfall: terms.shortfall.toString(),
    }).toEqual(expected);
  });

  it('a zone whose minimum is "0" has none, even when the mode has one', () => {
    const free = readDeliveryZones([{ ...WRITTEN[2], minimum_order_amount: '0' }])![0];
    expect(deliveryTerms(free, money('8000'), money('1')).minimum).toBeNull();
  });
});

describe('the written zones', () => {
  const check = (value: unknown) => {
    const faults: ErrorDetail[] = [];
    const stored = deliveryZones(value, 'zones', faults);
    return { stored, faults };
  };

  it('keep what was written, amounts as decimal text', () => {
    const { stored, faults } = check([{ ...WRITTEN[0], fee: 1500, note: 'kept' }]);
    expect(faults).toEqual([]);
    expect(stored).toEqual([{ ...WRITTEN[0], fee: '1500', note: 'kept' }]);
  });

  it.each([
    ['not a list', {}, 'zones'],
    ['51 zones', Array.from({ length: 51 }, (_, i) => ({ ...WRITTEN[3], key: `z${i}` })), 'zones'],
    ['a repeated key', [WRITTEN[3], WRITTEN[3]], 'zones[1].key'],
    ['a key with capitals', [{ ...WRITTEN[3], key: 'Ikoyi' }], 'zones[0].key'],
    ['no title', [{ ...WRITTEN[3], title: ' ' }], 'zones[0].title'],
    ['an unknown kind', [{ ...WRITTEN[3], kind: 'circle' }], 'zones[0].kind'],
    ['no fee', [{ ...WRITTEN[3], fee: undefined }], 'zones[0].fee'],
    ['a negative fee', [{ ...WRITTEN[3], fee: '-1' }], 'zones[0].fee'],
    ['a fee with 3 decimals', [{ ...WRITTEN[3], fee: '1.005' }], 'zones[0].fee'],
    [
      'a negative minimum',
      [{ ...WRITTEN[0], minimum_order_amount: '-5' }],
      'zones[0].minimum_order_amount',
    ],
    ['free_above as words', [{ ...WRITTEN[0], free_above: 'lots' }], 'zones[0].free_above'],
    ['eta_minutes of 2 days', [{ ...WRITTEN[0], eta_minutes: 2880 }], 'zones[0].eta_minutes'],
    [
      'a latitude past the pole',
      [{ ...WRITTEN[0], center: { lat: 90.5, lng: 3 } }],
      'zones[0].center.lat',
    ],
    [
      'a longitude past the antimeridian',
      [{ ...WRITTEN[0], center: { lat: 6, lng: -180.1 } }],
      'zones[0].center.lng',
    ],
    [
      'a latitude as text',
      [{ ...WRITTEN[0], center: { lat: '6.4', lng: 3 } }],
      'zones[0].center.lat',
    ],
    ['no center', [{ ...WRITTEN[0], center: undefined }], 'zones[0].center'],
    ['a radius of 50 m', [{ ...WRITTEN[0], radius_km: 0.05 }], 'zones[0].radius_km'],
    ['a radius of 101 km', [{ ...WRITTEN[0], radius_km: 101 }], 'zones[0].radius_km'],
    [
      'a polygon of 2 points',
      [
        {
          ...WRITTEN[2],
          polygon: [
            [6.43, 3.4],
            [6.44, 3.43],
          ],
        },
      ],
      'zones[0].polygon',
    ],
    [
      'a polygon of 501 points',
      [
        {
          ...WRITTEN[2],
          polygon: Array.from({ length: 501 }, (_, i) => [
            6 + Math.sin(i) / 100,
            3 + Math.cos(i) / 100,
          ]),
        },
      ],
      'zones[0].polygon',
    ],
    [
      'a point of 3 numbers',
      [
        {
          ...WRITTEN[2],
          polygon: [
            [6.43, 3.4, 0],
            [6.44, 3.43],
            [6.42, 3.44],
          ],
        },
      ],
      'zones[0].polygon[0]',
    ],
    [
      'a point past the pole',
      [
        {
          ...WRITTEN[2],
          polygon: [
            [6.43, 3.4],
            [96.44, 3.43],
            [6.42, 3.44],
          ],
        },
      ],
      'zones[0].polygon[1][0]',
    ],
    [
      'a bow tie',
      [
        {
          ...WRITTEN[2],
          polygon: [
            [5.62, -0.03],
            [5.7, 0.04],
            [5.62, 0.04],
            [5.7, -0.03],
          ],
        },
      ],
      'zones[0].polygon',
    ],
    ['no areas', [{ ...WRITTEN[3], areas: [] }], 'zones[0].areas'],
    [
      '201 areas',
      [{ ...WRITTEN[3], areas: Array.from({ length: 201 }, (_, i) => `Area ${i}`) }],
      'zones[0].areas',
    ],
    ['a blank area', [{ ...WRITTEN[3], areas: ['Ikoyi', ' '] }], 'zones[0].areas[1]'],
  ])('refuse %s, naming the path', (_, value, field) => {
    const { faults } = check(value);
    expect(faults.map((fault) => fault.field)).toContain(field);
  });

  it('accept 50 zones, 500 points, 200 areas, and a ring written closed', () => {
    const ring = Array.from({ length: 500 }, (_, i) => {
      const angle = (2 * Math.PI * i) / 500;
      return [6.45 + 0.05 * Math.sin(angle), 3.47 + 0.05 * Math.cos(angle)];
    });
    const value = [
      { ...WRITTEN[2], polygon: ring },
      { ...WRITTEN[2], key: 'closed', polygon: [...ring, ring[0]] },
      { ...WRITTEN[3], areas: Array.from({ length: 200 }, (_, i) => `Area ${i}`) },
      ...Array.from({ length: 47 }, (_, i) => ({ ...WRITTEN[0], key: `r${i}` })),
    ];
    expect(check(value).faults).toEqual([]);
  });

  it('say where a polygon crosses itself', () => {
    const { faults } = check([
      {
        ...WRITTEN[2],
        polygon: [
          [5.62, -0.03],
          [5.7, 0.04],
          [5.62, 0.04],
          [5.7, -0.03],
        ],
      },
    ]);
    expect(faults).toEqual([
      {
        field: 'zones[0].polygon',
        message:
          'zones[0].polygon crosses itself: the edge from point 0 and the edge from point 2 meet.',
        edges: [0, 2],
      },
    ]);
  });

  it('are left out of what the rest of the menu reads', () => {
    const extra = {
      a: 1,
      fulfilment: { modes: ['delivery'], delivery: { zones: WRITTEN, minimum_order_amount: '1' } },
    };
    expect(withoutZones(extra)).toEqual({
      a: 1,
      fulfilment: { modes: ['delivery'], delivery: { minimum_order_amount: '1' } },
    });
    const plain = { a: 1 };
    expect(withoutZones(plain)).toBe(plain);
  });
});
