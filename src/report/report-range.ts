import { ApiError } from '../http/api-error';

// R62: reports.
/** The longest period a report or an export may cover, in local days, both ends counted. */
export const MAX_REPORT_DAYS = 366;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A period of whole local days, `from` and `to` both included. */
export interface ReportRange {
  from: string;
  to: string;
  /** Days in the period, both ends counted. */
  days: number;
}

/** Milliseconds of a calendar date at UTC midnight, or undefined when it is not a real date. */
function calendarDay(value: string): number | undefined {
  const match = DATE.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (
    year < 1 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return undefined;
  }
  return ms;
}

/**
 * Checks a report's period: both dates real calendar dates written
 * YYYY-MM-DD (400 otherwise), `to` not before `from` (400), and at most
 * 366 days from the first to the last, both counted (422 beyond).
 */
export function parseReportRange(from: string, to: string): ReportRange {
  const start = calendarDay(from);
  const end = calendarDay(to);
  const problems = [
    ...(start === undefined
      ? [{ field: 'from', message: 'must be a date written YYYY-MM-DD' }]
      : []),
    ...(end === undefined ? [{ field: 'to', message: 'must be a date written YYYY-MM-DD' }] : []),
  ];
  if (problems.length > 0) throw ApiError.validation(problems);
  if (end! < start!) {
    throw ApiError.validation([{ field: 'to', message: 'must not be before from' }]);
  }
  const days = Math.round((end! - start!) / DAY_MS) + 1;
  if (days > MAX_REPORT_DAYS) {
    throw ApiError.unprocessable(
      `A report covers at most ${MAX_REPORT_DAYS} days; this period has ${days}.`,
      [{ field: 'to', message: `at most ${MAX_REPORT_DAYS} days after from, both counted` }],
    );
  }
  return { from, to, days };
}

/**
 * The business's time zone: `opening_hours.timezone` of its `extra_data`
 * when it names a zone this runtime knows, else UTC.
 */
export function businessTimeZone(extraData: unknown): string {
  const hours = (extraData as { opening_hours?: { timezone?: unknown } } | null)?.opening_hours;
  const zone = hours && typeof hours === 'object' ? hours.timezone : undefined;
  if (typeof zone !== 'string' || zone.trim() === '') return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}
