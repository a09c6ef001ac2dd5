import {
  MINUTES_PER_DAY,
  minutesOf,
  OpeningHours,
  WEEKDAYS,
  Weekday,
} from './opening-hours-setting';
import { dayNumberOf, instantOfLocal, wallClockMs } from './time-zone';

/*
 * Open or closed: whether a business takes orders at an instant, and when that
 * changes next. The setting's validation lives in opening-hours-setting.ts,
 * the zone arithmetic in time-zone.ts; both are re-exported here for the
 * modules that read the hours.
 */
export {
  normaliseOpeningHours,
  OpeningHours,
  readOpeningHours,
  WEEKDAYS,
  Weekday,
} from './opening-hours-setting';
export { dayNumberOf, instantOfLocal, isoInZone, isTimeZone, localTimeOf } from './time-zone';

/** How far ahead the next change is looked for; beyond this the answer is "not known" (null). */
const HORIZON_DAYS = 800;

export interface OpenState {
  open: boolean;
  /** When `open` flips next; null when it never does as far as the hours tell (or orders are switched off). */
  nextChangeAt: Date | null;
}

/** Open minute ranges [from, to) of one local day (days since 1970-01-01), merged and sorted. */
function rangesOfDay(
  hours: OpeningHours,
  closed: ReadonlySet<number>,
  day: number,
): Array<[number, number]> {
  if (closed.has(day)) return [];
  // 1970-01-01 was a Thursday.
  const weekday = (d: number): Weekday => WEEKDAYS[(((d + 3) % 7) + 7) % 7];
  const ranges: Array<[number, number]> = [];
  for (const [start, end] of hours.weekly[weekday(day)] ?? []) {
    const from = minutesOf(start);
    const to = minutesOf(end);
    ranges.push(to > from ? [from, to] : [from, MINUTES_PER_DAY]);
  }
  // The part past midnight of the previous day's intervals, unless that day was closed.
  const previous = closed.has(day - 1) ? [] : (hours.weekly[weekday(day - 1)] ?? []);
  for (const [start, end] of previous) {
    const from = minutesOf(start);
    const to = minutesOf(end);
    if (to < from && to > 0) ranges.push([0, to]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

function closedDays(hours: OpeningHours, fromDay: number, toDay: number): Set<number> {
  const closed = new Set<number>();
  for (const closure of hours.closures) {
    const from = Math.max(dayNumberOf(closure.from) ?? Infinity, fromDay);
    const to = Math.min(dayNumberOf(closure.to) ?? -Infinity, toDay);
    for (let day = from; day <= to; day++) closed.add(day);
  }
  return closed;
}

// R36: opening hours.
/**
 * Whether the business takes orders at `instant`, and when that changes
 * next. No hours: always open. `acceptingOrders: false` (the owner's switch):
 * closed, with no known reopening. Otherwise the hours decide, in the
 * business's own zone, so daylight-saving changes move the instants.
 */
export function openState(
  hours: OpeningHours | undefined,
  acceptingOrders: boolean,
  instant: Date,
): OpenState {
  if (!acceptingOrders) return { open: false, nextChangeAt: null };
  if (!hours) return { open: true, nextChangeAt: null };
  const zone = hours.timezone;
  const wall = wallClockMs(zone, instant.getTime());
  const today = Math.floor(wall / 86_400_000);
  const minute = Math.floor((wall - today * 86_400_000) / 60_000);
  const closed = closedDays(hours, today - 1, today + HORIZON_DAYS + 1);
  const ranges = (day: number) => rangesOfDay(hours, closed, day);

  const current = ranges(today).find(([from, to]) => from <= minute && minute < to);
  if (current) {
    // Open: the change is where the open time ends, following ranges that run on past midnight.
    let day = today;
    let end = current[1];
    while (end === MINUTES_PER_DAY) {
      if (day - today >= HORIZON_DAYS) return { open: true, nextChangeAt: null };
      day++;
      const first = ranges(day)[0];
      if (!first || first[0] !== 0) {
        end = 0;
        break;
      }
      end = first[1];
    }
    return { open: true, nextChangeAt: instantOfLocal(zone, day, end) };
  }
  for (let day = today; day <= today + HORIZON_DAYS; day++) {
    const next = ranges(day).find(([from]) => day > today || from > minute);
    if (next) return { open: false, nextChangeAt: instantOfLocal(zone, day, next[0]) };
  }
  return { open: false, nextChangeAt: null };
}
