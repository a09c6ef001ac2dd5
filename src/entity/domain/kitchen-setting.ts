import { ErrorDetail } from '../../http/api-error';
import { isUuid } from '../../common/uuid';
import { Described, FieldRule, isPlainObject, nullable, rule } from '../extra-data';

export const MAX_STATIONS = 20;
export const STATION_KEY = /^[a-z0-9_-]{1,32}$/;
const MAX_TITLE = 64;
const MAX_NAMES = 200;

/** One station of a kitchen as stored. */
export interface KitchenStation {
  key: string;
  title: string;
  categories: string[];
  item_uuids: string[];
}

/** A business's kitchen: its stations and the one that takes what no station names. */
export interface KitchenSetting {
  stations: KitchenStation[];
  default_station: string;
}

/** Without a `kitchen` setting, one station takes every item. */
export const DEFAULT_KITCHEN: KitchenSetting = {
  stations: [{ key: 'kitchen', title: 'Kitchen', categories: [], item_uuids: [] }],
  default_station: 'kitchen',
};

type Faults = ErrorDetail[];

function names(
  value: unknown,
  at: string,
  faults: Faults,
  valid: (entry: unknown) => boolean,
  what: string,
): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_NAMES || !value.every(valid)) {
    faults.push({ field: at, message: `${at} must be an array of at most ${MAX_NAMES} ${what}.` });
    return undefined;
  }
  return value as string[];
}

function station(value: unknown, at: string, faults: Faults): KitchenStation | undefined {
  if (!isPlainObject(value)) {
    faults.push({ field: at, message: `${at} must be an object {key, title}.` });
    return undefined;
  }
  const before = faults.length;
  if (typeof value.key !== 'string' || !STATION_KEY.test(value.key)) {
    faults.push({ field: `${at}.key`, message: `${at}.key must match ${STATION_KEY.source}.` });
  }
  const title = value.title ?? value.key;
  if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE) {
    faults.push({
      field: `${at}.title`,
      message: `${at}.title must be text of 1 to ${MAX_TITLE} characters.`,
    });
  }
  const categories = names(
    value.categories,
    `${at}.categories`,
    faults,
    (entry) => typeof entry === 'string' && entry.trim() !== '' && entry.length <= 255,
    'category names',
  );
  const items = names(value.item_uuids, `${at}.item_uuids`, faults, isUuid, 'item uuids');
  if (faults.length > before) return undefined;
  return {
    ...value,
    key: value.key as string,
    title: title as string,
    categories: categories!,
    item_uuids: items!.map((uuid) => uuid.toLowerCase()),
  };
}

// R81: kitchen stations.
/**
 * Checks a business's `kitchen`: 1–20 stations, each key 1–32 of
 * `a-z0-9_-` and unique, `default_station` one of the keys (absent: the
 * first). Each fault names its path.
 */
export function checkKitchen(value: unknown, field: string, faults: Faults): unknown {
  if (value === null) return value;
  if (!isPlainObject(value)) {
    faults.push({ field, message: `${field} must be an object {stations, default_station}.` });
    return undefined;
  }
  const list = value.stations;
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_STATIONS) {
    faults.push({
      field: `${field}.stations`,
      message: `${field}.stations must be an array of 1 to ${MAX_STATIONS} stations.`,
    });
    return undefined;
  }
  const before = faults.length;
  const stations: KitchenStation[] = [];
  const seen = new Set<string>();
  list.forEach((entry: unknown, index) => {
    const at = `${field}.stations[${index}]`;
    const checked = station(entry, at, faults);
    if (!checked) return;
    if (seen.has(checked.key)) {
      faults.push({ field: `${at}.key`, message: `${at}.key "${checked.key}" is used twice.` });
      return;
    }
    seen.add(checked.key);
    stations.push(checked);
  });
  if (faults.length > before) return undefined;
  const fallback = value.default_station ?? stations[0].key;
  if (typeof fallback !== 'string' || !seen.has(fallback)) {
    faults.push({
      field: `${field}.default_station`,
      message: `${field}.default_station must be the key of one of the stations.`,
    });
    return undefined;
  }
  return { ...value, stations, default_station: fallback };
}

const STATION_SCHEMA = {
  type: 'object',
  required: ['key'],
  properties: {
    key: { type: 'string', pattern: STATION_KEY.source },
    title: { type: 'string', maxLength: MAX_TITLE },
    categories: { type: 'array', items: { type: 'string' }, maxItems: MAX_NAMES },
    item_uuids: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: MAX_NAMES },
  },
};

/** The `kitchen` field of a business's `extra_data`. */
export function kitchenSetting(described?: Described): FieldRule {
  return rule(
    checkKitchen,
    nullable({
      type: 'object',
      required: ['stations'],
      properties: {
        stations: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_STATIONS,
          items: STATION_SCHEMA,
        },
        default_station: { type: 'string', pattern: STATION_KEY.source },
      },
    }),
    described,
  );
}

/** The kitchen of a stored `extra_data.kitchen`; the one-station kitchen when absent or unreadable. */
export function readKitchen(value: unknown): KitchenSetting {
  if (value === undefined || value === null) return DEFAULT_KITCHEN;
  const faults: Faults = [];
  const checked = checkKitchen(value, 'kitchen', faults);
  return faults.length || !checked ? DEFAULT_KITCHEN : (checked as KitchenSetting);
}
