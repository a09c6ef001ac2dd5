import { MESSAGE_CHANNELS, MessageChannel } from '../../order';

/** The moments a guest may hear of: each is an order status the order moved to. */
export const MESSAGE_EVENTS = ['accepted', 'ready', 'out_for_delivery', 'rejected'] as const;
export type MessageEvent = (typeof MESSAGE_EVENTS)[number];

/** A business's `extra_data.guest_messages`, as read. */
export interface GuestMessageSettings {
  /** In the business's order of preference; the fallback is the next one. */
  channels: MessageChannel[];
  events: MessageEvent[];
  /** Messages a calendar month (the business's time zone); null: no limit. */
  monthlyLimit: number | null;
}

function subset<T extends string>(value: unknown, allowed: readonly T[]): T[] {
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const entry of value) {
    if ((allowed as readonly unknown[]).includes(entry) && !out.includes(entry as T)) {
      out.push(entry as T);
    }
  }
  return out;
}

/**
 * The business's guest-message settings, or null when it sends none (no
 * `guest_messages`, or no channel or event in it): a business without them
 * behaves as before.
 */
export function readGuestMessageSettings(
  extraData: Record<string, unknown> | null,
): GuestMessageSettings | null {
  const raw = extraData?.guest_messages;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const value = raw as Record<string, unknown>;
  const channels = subset(value.channels, MESSAGE_CHANNELS);
  const events = subset(value.events, MESSAGE_EVENTS);
  if (channels.length === 0 || events.length === 0) return null;
  const limit = value.monthly_limit;
  return {
    channels,
    events,
    monthlyLimit: typeof limit === 'number' && Number.isInteger(limit) && limit >= 0 ? limit : null,
  };
}

/** The event an order's move to `status` is, when it is one guests hear of. */
export function eventOfStatus(status: string): MessageEvent | null {
  return (MESSAGE_EVENTS as readonly string[]).includes(status) ? (status as MessageEvent) : null;
}

/** The business's time zone: `opening_hours.timezone`, else UTC. */
export function timeZoneOf(extraData: Record<string, unknown> | null): string {
  const hours = extraData?.opening_hours as { timezone?: unknown } | undefined;
  const zone = hours && typeof hours === 'object' ? hours.timezone : undefined;
  if (typeof zone === 'string') {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return zone;
    } catch {
      return 'UTC';
    }
  }
  return 'UTC';
}

/** `YYYY-MM` of `at` in `zone`. */
export function monthIn(at: Date, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  const year = parts.find((part) => part.type === 'year')?.value ?? '1970';
  const month = parts.find((part) => part.type === 'month')?.value ?? '01';
  return `${year}-${month}`;
}

/** The first instant of the month `YYYY-MM` in `zone`, and of the month after. */
export function monthBounds(month: string, zone: string): { start: Date; end: Date } {
  const [year, mon] = month.split('-').map(Number);
  const next = mon === 12 ? [year + 1, 1] : [year, mon + 1];
  return { start: startOfDayIn(year, mon, 1, zone), end: startOfDayIn(next[0], next[1], 1, zone) };
}

/** Midnight of a local date in `zone`, as an instant. */
export function startOfDayIn(year: number, month: number, day: number, zone: string): Date {
  const utc = Date.UTC(year, month - 1, day);
  // The zone's offset at that moment, applied twice to settle across a change of offset.
  let guess = utc;
  for (let i = 0; i < 2; i++) guess = utc - offsetMs(new Date(guess), zone);
  return new Date(guess);
}

function offsetMs(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  const local = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return local - Math.floor(at.getTime() / 1000) * 1000;
}
