/*
 * Zone arithmetic: local wall times and days of an instant in an IANA zone,
 * and back, with daylight-saving changes taken into account.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

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
export function wallClockMs(zone: string, instantMs: number): number {
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

/** An instant as ISO 8601 with the zone's offset ("2026-03-29T09:00:00+01:00"). */
export function isoInZone(instant: Date, zone: string): string {
  const offset = Math.round(offsetMs(zone, instant.getTime()) / 60_000);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset * 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
