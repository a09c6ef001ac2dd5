import { ErrorDetail } from '../../http/api-error';

/**
 * A business's opening hours, kept in its `extra_data.opening_hours`:
 *
 * - `timezone`: the IANA zone the times are local to ("Africa/Lagos").
 * - `weekly`: per day (`mon` … `sun`) a list of `["HH:MM", "HH:MM"]`
 *   intervals. The end may be `24:00`; an end before its start runs past
 *   midnight into the next day. A day left out or `[]` is closed.
 * - `closures`: whole local days (`from` … `to`, both included, `YYYY-MM-DD`)
 *   on which the business is closed whatever the weekly hours say: nothing of
 *   such a day is open (not even the part of the previous evening's interval
 *   that runs past midnight), and an interval that starts on it does not run
 *   on past midnight either.
 */
export interface OpeningHours {
  timezone: string;
  weekly: Partial<Record<Weekday, Array<[string, string]>>>;
  closures: Array<{ from: string; to: string; note?: string | null }>;
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface OpenState {
  open: boolean;
  /** When `open` flips next; null when it never does as far as the hours tell (or orders are switched off). */
  nextChangeAt: Date | null;
}

const MINUTES_PER_DAY = 24 * 60;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MAX_INTERVALS_PER_DAY = 10;
const MAX_CLOSURES = 200;
/** How far ahead the next change is looked for; beyond this the answer is "not known" (null). */
const HORIZON_DAYS = 800;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether Intl knows the zone; fixed offsets ("+01:00") are refused, as they have no daylight saving. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64 || /^[+-]/.test(zone)) {
    return false;
  }
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

function minutesOf(text: string): number {
  if (text === '24:00') return MINUTES_PER_DAY;
  const match = TIME.exec(text)!;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Days since 1970-01-01 of a valid `YYYY-MM-DD`, or undefined. */
export function dayNumberOf(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day
  ) {
    return undefined;
  }
  return ms / 86_400_000;
}

/**
 * Checks `opening_hours` as written and returns what is stored; each fault
 * names its path (`extra_data.opening_hours.weekly.fri[0][1]`).
 */
export function normaliseOpeningHours(
  value: unknown,
  path: string,
  faults: ErrorDetail[],
): OpeningHours | null | undefined {
  if (value === null) return null;
  if (!isPlainObject(value)) {
    faults.push({ field: path, message: `${path} must be an object.` });
    return;
  }
  const before = faults.length;
  if (!isTimeZone(value.timezone)) {
    faults.push({
      field: `${path}.timezone`,
      message: `${path}.timezone must be an IANA time zone such as "Africa/Lagos".`,
    });
  }
  const weekly: OpeningHours['weekly'] = {};
  const weeklyInput = value.weekly ?? {};
  if (!isPlainObject(weeklyInput)) {
    faults.push({ field: `${path}.weekly`, message: `${path}.weekly must be an object.` });
  } else {
    for (const [day, intervals] of Object.entries(weeklyInput)) {
      const dayPath = `${path}.weekly.${day}`;
      if (!(WEEKDAYS as readonly string[]).includes(day)) {
        faults.push({
          field: dayPath,
          message: `${dayPath} is not a day; use ${WEEKDAYS.join(', ')}.`,
        });
        continue;
      }
      if (intervals === null) continue;
      if (!Array.isArray(intervals) || intervals.length > MAX_INTERVALS_PER_DAY) {
        faults.push({
          field: dayPath,
          message: `${dayPath} must be a list of at most ${MAX_INTERVALS_PER_DAY} ["HH:MM", "HH:MM"] intervals.`,
        });
        continue;
      }
      const kept: Array<[string, string]> = [];
      intervals.forEach((interval: unknown, index) => {
        const at = `${dayPath}[${index}]`;
        if (!Array.isArray(interval) || interval.length !== 2) {
          faults.push({ field: at, message: `${at} must be ["HH:MM", "HH:MM"].` });
          return;
        }
        const [start, end] = interval as unknown[];
        let good = true;
        if (typeof start !== 'string' || !TIME.test(start)) {
          faults.push({
            field: `${at}[0]`,
            message: `${at}[0] must be a time from 00:00 to 23:59.`,
          });
          good = false;
        }
        if (typeof end !== 'string' || !(TIME.test(end) || end === '24:00')) {
          faults.push({
            field: `${at}[1]`,
            message: `${at}[1] must be a time from 00:00 to 24:00.`,
          });
          good = false;
        }
        if (!good) return;
        if (minutesOf(start as string) === minutesOf(end as string)) {
          faults.push({
            field: `${at}[1]`,
            message: `${at}[1] must differ from its start; use ["00:00", "24:00"] for a whole day.`,
          });
          return;
        }
        kept.push([start as string, end as string]);
      });
      weekly[day as Weekday] = kept;
    }
  }
  const closures: OpeningHours['closures'] = [];
  const closuresInput = value.closures ?? [];
  if (!Array.isArray(closuresInput) || closuresInput.length > MAX_CLOSURES) {
    faults.push({
      field: `${path}.closures`,
      message: `${path}.closures must be a list of at most ${MAX_CLOSURES} closures.`,
    });
  } else {
    closuresInput.forEach((closure: unknown, index) => {
      const at = `${path}.closures[${index}]`;
      if (!isPlainObject(closure)) {
        faults.push({ field: at, message: `${at} must be an object with from and to.` });
        return;
      }
      const from = dayNumberOf(closure.from);
      const to = dayNumberOf(closure.to);
      if (from === undefined) {
        faults.push({ field: `${at}.from`, message: `${at}.from must be a date, YYYY-MM-DD.` });
      }
      if (to === undefined) {
        faults.push({ field: `${at}.to`, message: `${at}.to must be a date, YYYY-MM-DD.` });
      }
      if (closure.note !== undefined && closure.note !== null && typeof closure.note !== 'string') {
        faults.push({ field: `${at}.note`, message: `${at}.note must be a string.` });
      }
      if (from === undefined || to === undefined) return;
      if (to < from) {
        faults.push({ field: `${at}.to`, message: `${at}.to must not be before ${at}.from.` });
        return;
      }
      closures.push({ ...closure, from: closure.from as string, to: closure.to as string });
    });
  }
  if (faults.length > before) return;
  return { ...value, timezone: value.timezone as string, weekly, closures };
}

/** Stored `opening_hours` as the rules read it; anything unreadable counts as "no hours" (always open). */
export function readOpeningHours(value: unknown): OpeningHours | undefined {
  if (value === undefined || value === null) return undefined;
  const faults: ErrorDetail[] = [];
  return normaliseOpeningHours(value, 'opening_hours', faults) ?? undefined;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The local wall time of an instant as if it were UTC (ms), whole seconds. */
function wallClockMs(zone: string, instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The local day (days since 1970-01-01) and millisecond of that day of an instant in `zone`. */
export function localTimeOf(zone: string, instant: Date): { day: number; msOfDay: number } {
  const wall = wallClockMs(zone, instant.getTime()) + (instant.getTime() % 1000);
  const day = Math.floor(wall / 86_400_000);
  return { day, msOfDay: wall - day * 86_400_000 };
}

function offsetMs(zone: string, instantMs: number): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallClockMs(zone, whole) - whole;
}

/**
 * The instant of a local wall time. A time skipped by a daylight-saving
 * change (01:30 on the morning clocks go forward) is taken as the instant the
 * same clock reading reaches after the jump (02:30 in the new offset); a
 * repeated one as its first occurrence.
 */
export function instantOfLocal(zone: string, day: number, minute: number): Date {
  const wall = day * 86_400_000 + minute * 60_000;
  const first = wall - offsetMs(zone, wall);
  const firstOffset = offsetMs(zone, first);
  if (wall - firstOffset === first) {
    // Repeated hour: an earlier instant with the other offset shows the same wall time.
    const earlier = wall - offsetMs(zone, first - 3_600_000);
    return new Date(earlier < first && wallClockMs(zone, earlier) === wall ? earlier : first);
  }
  const second = wall - firstOffset;
  if (wallClockMs(zone, second) === wall) return new Date(second);
  return new Date(Math.max(first, second));
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

/** An instant as ISO 8601 with the zone's offset ("2026-03-29T09:00:00+01:00"). */
export function isoInZone(instant: Date, zone: string): string {
  const offset = Math.round(offsetMs(zone, instant.getTime()) / 60_000);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
