import { ErrorDetail } from '../../http/api-error';
import { dayNumberOf, isTimeZone } from './time-zone';

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

export const MINUTES_PER_DAY = 24 * 60;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const MAX_INTERVALS_PER_DAY = 10;
const MAX_CLOSURES = 200;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Minutes since midnight of a checked `HH:MM` (or `24:00`). */
export function minutesOf(text: string): number {
  if (text === '24:00') return MINUTES_PER_DAY;
  const match = TIME.exec(text)!;
  return Number(match[1]) * 60 + Number(match[2]);
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
