import { manualMoveTable } from '../../payment';

/** Order states, in the order an order usually moves through them. */
export const ORDER_STATUSES = [
  'pending',
  'accepted',
  'preparing',
  'ready',
  'out_for_delivery',
  'completed',
  'rejected',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The only moves an owner may make; anything else is refused with these as the allowed ones. */
const NEXT_STATUS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['accepted', 'rejected', 'cancelled'],
  accepted: ['preparing', 'ready', 'cancelled'],
  preparing: ['ready', 'cancelled'],
  ready: ['out_for_delivery', 'completed'],
  out_for_delivery: ['completed'],
  completed: [],
  rejected: [],
  cancelled: [],
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function nextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return NEXT_STATUS[from];
}

// R23: order states.
/** Staying in the same state is not an allowed move, so it is refused like any other. */
export function canMoveStatus(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUS[from].includes(to);
}

export function isFinalStatus(status: OrderStatus): boolean {
  return NEXT_STATUS[status].length === 0;
}

function orList(values: readonly string[]): string {
  return values.length === 1
    ? values[0]
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function andList(values: readonly string[]): string {
  return values.length === 1
    ? values[0]
    : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}

/**
 * The moves of a transition table in words, written from the table itself so
 * the API description and the documentation can never disagree with the code:
 * "pending to accepted, rejected or cancelled; …; completed, rejected and
 * cancelled are final."
 */
function describeMoves<S extends string>(table: Readonly<Record<S, readonly S[]>>): string {
  const states = Object.keys(table) as S[];
  const moves = states
    .filter((from) => table[from].length > 0)
    .map((from) => `${from} to ${orList(table[from])}`);
  const final = states.filter((from) => table[from].length === 0);
  const end =
    final.length === 0 ? '' : `; ${andList(final)} ${final.length === 1 ? 'is' : 'are'} final`;
  return `${moves.join('; ')}${end}.`;
}

/** The order's status moves in words, from the transition table. */
export function describeStatusMoves(): string {
  return describeMoves(NEXT_STATUS);
}

/** The owner's manual payment status moves in words, from the payment module's table. */
export function describePaymentStatusMoves(): string {
  return describeMoves(manualMoveTable());
}

/** The status transition table as rows of `from` and its allowed next states. */
export function statusMoveRows(): Array<{ from: OrderStatus; next: readonly OrderStatus[] }> {
  return ORDER_STATUSES.map((from) => ({ from, next: NEXT_STATUS[from] }));
}
