/** When a pending order is due to be rejected for want of acceptance, from its stored facts. */

/** A deadline setting as stored: a whole number of minutes 1–240, else none. */
export function deadlineMinutesOf(value: unknown): number | null {
  const minutes = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes >= 1 && minutes <= 240
    ? minutes
    : null;
}

function prepMinutesOf(fulfilment: unknown): number {
  if (!fulfilment || typeof fulfilment !== 'object') return 0;
  const raw = (fulfilment as Record<string, unknown>).prep_time_minutes;
  const minutes = typeof raw === 'string' ? Number(raw.trim()) : raw;
  return typeof minutes === 'number' && Number.isInteger(minutes) && minutes > 0 ? minutes : 0;
}

/**
 * The moment an order stops waiting (R90): an order for now `minutes` after
 * it was placed; an order for later at its requested time minus the menu's
 * prep time (the kitchen must have started by then). Null without a deadline.
 */
export function acceptanceDeadline(order: {
  createdAt: Date;
  requestedTime: Date | null;
  deadlineMinutes: unknown;
  fulfilment: unknown;
}): Date | null {
  const minutes = deadlineMinutesOf(order.deadlineMinutes);
  if (minutes === null) return null;
  if (order.requestedTime) {
    return new Date(order.requestedTime.getTime() - prepMinutesOf(order.fulfilment) * 60_000);
  }
  return new Date(order.createdAt.getTime() + minutes * 60_000);
}
