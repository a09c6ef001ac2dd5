import { Clock } from '../common/clock';
import { Availability, availabilityAt, busyMinutesAt } from './domain/availability';
import { isoInZone, OpenState, openState, readOpeningHours } from './domain/opening-hours';
import { requestedTimeProblem, SlotRules, slotsOfDay, slotZone } from './domain/requested-time';
import { EntityRecord } from './entity-record.entity';
import { AnswerTimeFields, StorefrontAnswerInputs } from './storefront-document';

type Business = Pick<EntityRecord, 'extraData'>;

/** Whether a business takes orders now, and when that changes, as the storefront and placement tell it. */
export interface BusinessOpenState extends OpenState {
  /** `nextChangeAt` as ISO 8601 with the business's own offset; null when not known. */
  nextChangeText: string | null;
}

/**
 * The one place that decides whether a business is open: its
 * `opening_hours` and `accepting_orders` at the service clock's now.
 * Placement and the storefront answer both ask here.
 */
export function businessOpenState(business: Business, clock: Clock): BusinessOpenState {
  const hours = readOpeningHours(business.extraData.opening_hours);
  const switchValue = business.extraData.accepting_orders;
  const accepting = switchValue !== false && switchValue !== 'false';
  const state = openState(hours, accepting, clock.now());
  const nextChangeText = state.nextChangeAt
    ? hours
      ? isoInZone(state.nextChangeAt, hours.timezone)
      : state.nextChangeAt.toISOString()
    : null;
  return { ...state, nextChangeText };
}

/**
 * The kitchen's switch of a business at the service clock's now: open,
 * busy (with its extra minutes) or paused, `until` past reading as open.
 */
export function businessAvailability(business: Business, clock: Clock): Availability {
  return availabilityAt(business.extraData, clock.now());
}

/** The slot rules with a busy kitchen's extra minutes added to the prep time (R94). */
function withBusyMinutes(business: Business, rules: SlotRules, clock: Clock): SlotRules {
  const extra = busyMinutesAt(business.extraData, clock.now());
  return extra ? { ...rules, prepTimeMinutes: rules.prepTimeMinutes + extra } : rules;
}

/**
 * Why a business cannot take an order for `requested` now, or null: the
 * slot grid, prep time and window of `rules` and its opening hours, in its
 * own zone (UTC without hours). The switch for orders now does not apply.
 */
export function businessRequestedTimeProblem(
  business: Business,
  rules: SlotRules,
  requested: Date,
  clock: Clock,
): string | null {
  const hours = readOpeningHours(business.extraData.opening_hours);
  return requestedTimeProblem(
    requested,
    clock.now(),
    hours,
    withBusyMinutes(business, rules, clock),
  );
}

/**
 * The slots of a local day (`YYYY-MM-DD`) of a business that can still be
 * ordered, as ISO 8601 with the business's offset; undefined for a
 * malformed date.
 */
export function businessSlotsOfDay(
  business: Business,
  rules: SlotRules,
  date: string,
  clock: Clock,
): Array<{ start: Date; startText: string; endText: string }> | undefined {
  const hours = readOpeningHours(business.extraData.opening_hours);
  const zone = slotZone(hours);
  const busyRules = withBusyMinutes(business, rules, clock);
  return slotsOfDay(date, clock.now(), hours, busyRules)?.map((slot) => ({
    start: slot.start,
    startText: isoInZone(slot.start, zone),
    endText: isoInZone(slot.end, zone),
  }));
}

/**
 * The one place where fields computed at answer time are added to the
 * storefront's `data`, from the inputs stored with the document and the
 * service clock; `validUntilMs` is when they next change (an answer is
 * never kept past it): `open_now` and `next_change_at`, from the
 * business's opening hours and accepting_orders kept with the document, so
 * a cached answer never says open once the business has closed; and
 * `availability` and `estimated_wait_minutes`, from the kitchen's switch
 * and the menu's prep time, never kept past the switch's `until`.
 */
export function answerTimeFields(inputs: StorefrontAnswerInputs, clock: Clock): AnswerTimeFields {
  const open = businessOpenState({ extraData: { ...inputs } }, clock);
  // A day's stock ends at the business's midnight.
  const times = [open.nextChangeAt?.getTime(), inputs.stock_until].filter(
    (ms): ms is number => typeof ms === 'number',
  );
  const fields: Record<string, unknown> = {
    open_now: open.open,
    next_change_at: open.nextChangeText,
  };
  // R93: the kitchen's switch and the wait it means, never kept past its `until`.
  const availability = businessAvailability({ extraData: { ...inputs } }, clock);
  const prep = Number(inputs.prep_time_minutes);
  fields.availability = availability;
  fields.estimated_wait_minutes =
    (Number.isInteger(prep) && prep > 0 ? prep : 0) + (availability.extra_prep_minutes ?? 0);
  if (availability.until) times.push(new Date(availability.until).getTime());
  return { fields, validUntilMs: times.length ? Math.min(...times) : null };
}
