import { dayNumberOf, instantOfLocal, localTimeOf, OpeningHours, openState } from './opening-hours';

/** A menu's scheduling as the slot rules read it. */
export interface SlotRules {
  /** Slot length in minutes; slots start on multiples of it from local midnight. */
  slotMinutes: number;
  /** The earliest slot is at least this many minutes from now. */
  prepTimeMinutes: number;
  /** The last local day that takes orders is today plus this many days. */
  maxDaysAhead: number;
}

export interface Slot {
  start: Date;
  end: Date;
}

/** The zone slots are counted in: the opening hours' zone, else UTC. */
export function slotZone(hours: OpeningHours | undefined): string {
  return hours?.timezone ?? 'UTC';
}

/**
 * Why `requested` cannot be ordered for at `now`, or null when it can. It
 * must start a slot (a whole multiple of `slotMinutes` from local midnight in
 * the business's zone, no seconds), be at least `prepTimeMinutes` after
 * `now`, fall on a local day at most `maxDaysAhead` days after today, and be
 * an instant the opening hours say is open (closures included; the owner's
 * switch for orders now does not matter to an order for later). Without
 * opening hours every instant is open and the zone is UTC.
 */
export function requestedTimeProblem(
  requested: Date,
  now: Date,
  hours: OpeningHours | undefined,
  rules: SlotRules,
): string | null {
  const zone = slotZone(hours);
  const local = localTimeOf(zone, requested);
  if (local.msOfDay % (rules.slotMinutes * 60_000) !== 0) {
    return `requested_time must start a slot: a multiple of ${rules.slotMinutes} minutes from midnight in ${zone}.`;
  }
  const earliest = now.getTime() + rules.prepTimeMinutes * 60_000;
  if (requested.getTime() < earliest) {
    return rules.prepTimeMinutes > 0
      ? `requested_time must be at least ${rules.prepTimeMinutes} minutes from now.`
      : 'requested_time must not be in the past.';
  }
  const today = localTimeOf(zone, now).day;
  if (local.day > today + rules.maxDaysAhead) {
    return `requested_time must be at most ${rules.maxDaysAhead} days ahead.`;
  }
  if (!openState(hours, true, requested).open) {
    return 'requested_time is outside the opening hours.';
  }
  return null;
}

/**
 * The slots of one local day (`YYYY-MM-DD` in the business's zone) that can
 * still be ordered for at `now`, oldest first; undefined for a malformed
 * date, [] for a day outside the window. A day of a daylight-saving change
 * has the slots its clock shows: none in the skipped hour, those of the
 * repeated hour twice (they are different instants).
 */
export function slotsOfDay(
  date: string,
  now: Date,
  hours: OpeningHours | undefined,
  rules: SlotRules,
): Slot[] | undefined {
  const day = dayNumberOf(date);
  if (day === undefined) return undefined;
  const zone = slotZone(hours);
  const today = localTimeOf(zone, now).day;
  if (day < today || day > today + rules.maxDaysAhead) return [];
  const step = rules.slotMinutes * 60_000;
  const from = instantOfLocal(zone, day, 0).getTime();
  const to = instantOfLocal(zone, day + 1, 0).getTime();
  const slots: Slot[] = [];
  // Whole minutes step through real instants; a slot starts where the local clock shows a boundary.
  for (let at = from; at < to; at += 60_000) {
    const start = new Date(at);
    const local = localTimeOf(zone, start);
    if (local.day !== day || local.msOfDay % step !== 0) continue;
    if (requestedTimeProblem(start, now, hours, rules) === null) {
      slots.push({ start, end: new Date(at + step) });
    }
  }
  return slots;
}
