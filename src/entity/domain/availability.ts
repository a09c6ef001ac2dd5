/**
 * The kitchen's switch, kept in the business record's `extra_data.availability`
 * (written only by the availability route, never by a PUT of the record):
 * `open`, `busy` (every new order takes `extra_prep_minutes` longer) or
 * `paused` (no order for now), until `until` or until changed.
 */
export const AVAILABILITY_MODES = ['open', 'busy', 'paused'] as const;
export type AvailabilityMode = (typeof AVAILABILITY_MODES)[number];

/** The key of `extra_data` the switch lives in. */
export const AVAILABILITY_KEY = 'availability';

/** The switch as it stands at a moment. */
export interface Availability {
  mode: AvailabilityMode;
  /** With `busy` only; null otherwise. */
  extra_prep_minutes: number | null;
  /** When the mode returns to `open` by itself; null: until changed. */
  until: string | null;
}

export const OPEN: Availability = { mode: 'open', extra_prep_minutes: null, until: null };

function isMode(value: unknown): value is AvailabilityMode {
  return typeof value === 'string' && (AVAILABILITY_MODES as readonly string[]).includes(value);
}

/**
 * The switch of a business at `now` (R93): the stored mode until its
 * `until` has passed (then `open`); `accepting_orders: false` reads as
 * `paused` with no `until` unless a pause of its own is stored.
 */
export function availabilityAt(extraData: Record<string, unknown>, now: Date): Availability {
  const stored = extraData[AVAILABILITY_KEY];
  let current = OPEN;
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    const raw = stored as Record<string, unknown>;
    const until = typeof raw.until === 'string' ? raw.until : null;
    const ended = until !== null && !(new Date(until).getTime() > now.getTime());
    if (isMode(raw.mode) && !ended) {
      const extra = Number(raw.extra_prep_minutes);
      current = {
        mode: raw.mode,
        extra_prep_minutes:
          raw.mode === 'busy' && Number.isInteger(extra) && extra > 0 ? extra : null,
        until,
      };
      if (current.mode === 'busy' && current.extra_prep_minutes === null) current = OPEN;
    }
  }
  const switchValue = extraData.accepting_orders;
  if ((switchValue === false || switchValue === 'false') && current.mode !== 'paused') {
    return { mode: 'paused', extra_prep_minutes: null, until: null };
  }
  return current;
}

/** The minutes a busy kitchen adds to every new order's prep time at `now` (0 otherwise). */
export function busyMinutesAt(extraData: Record<string, unknown>, now: Date): number {
  return availabilityAt(extraData, now).extra_prep_minutes ?? 0;
}

/**
 * `extra_data` as a PUT or create of a record may write it: the switch as
 * stored (absent on a new record), whatever the body says; only the
 * availability route changes it, with its record of who did.
 */
export function keepStoredAvailability(
  sent: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!(AVAILABILITY_KEY in sent) && !(stored && AVAILABILITY_KEY in stored)) return sent;
  const { [AVAILABILITY_KEY]: _sent, ...rest } = sent;
  return stored && AVAILABILITY_KEY in stored
    ? { ...rest, [AVAILABILITY_KEY]: stored[AVAILABILITY_KEY] }
    : rest;
}
