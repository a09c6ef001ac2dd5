import { StockMode } from '../entity';

const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();

/**
 * The business's time zone: `opening_hours.timezone` of its `extra_data`
 * when this runtime knows it, else UTC (as its opening hours and slots).
 */
export function stockTimeZone(businessExtra: Record<string, unknown> | null | undefined): string {
  const hours = businessExtra?.opening_hours as { timezone?: unknown } | null | undefined;
  const zone = hours && typeof hours === 'object' ? hours.timezone : undefined;
  if (typeof zone !== 'string' || zone === '') return 'UTC';
  try {
    dayFormat(zone);
    return zone;
  } catch {
    return 'UTC';
  }
}

function dayFormat(zone: string): Intl.DateTimeFormat {
  let format = DAY_FORMATS.get(zone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    DAY_FORMATS.set(zone, format);
  }
  return format;
}

/** The local day (`YYYY-MM-DD`) of an instant in `zone`. */
export function localDayOf(zone: string, instant: Date): string {
  return dayFormat(zone).format(instant);
}

/** The period `count` stock is kept in: one for as long as the item has it. */
export const COUNT_PERIOD = 'count';

// R97: daily stock is counted per local day of the business, from midnight in its time zone.
/** The period portions are counted in: the local day of `instant` for `daily`, else `count`. */
export function periodOf(mode: StockMode, zone: string, instant: Date): string {
  return mode === 'daily' ? localDayOf(zone, instant) : COUNT_PERIOD;
}
