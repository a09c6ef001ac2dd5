export const LINE_STATUSES = ['queued', 'preparing', 'ready'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];
export type TicketStatus = LineStatus | 'cancelled';
export type TicketKind = 'new' | 'void';

export function isLineStatus(value: unknown): value is LineStatus {
  return typeof value === 'string' && (LINE_STATUSES as readonly string[]).includes(value);
}

// R83: one step at a time.
/** A line moves one step forward, or one back for a mistake; staying put is no move. */
export function canMoveLine(from: LineStatus, to: LineStatus): boolean {
  return Math.abs(LINE_STATUSES.indexOf(from) - LINE_STATUSES.indexOf(to)) === 1;
}

/** A ticket's status is its slowest line's. */
export function ticketStatusOf(lines: ReadonlyArray<{ status: LineStatus }>): LineStatus {
  let slowest = LINE_STATUSES.length - 1;
  for (const line of lines) slowest = Math.min(slowest, LINE_STATUSES.indexOf(line.status));
  return LINE_STATUSES[slowest];
}

/** Open: the kitchen still has something to do with it. */
export function isOpenTicket(status: TicketStatus): boolean {
  return status === 'queued' || status === 'preparing';
}
