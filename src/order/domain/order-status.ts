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

export const PAYMENT_STATUSES = ['unpaid', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The owner's manual moves: `unpaid → paid | refunded`; money that came in
 * can go back (`paid` or `partially_refunded` → `refunded`), and a refund is
 * final. `partially_refunded` is only reached through a refund of an amount.
 */
const NEXT_PAYMENT_STATUS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  unpaid: ['paid', 'refunded'],
  paid: ['refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function nextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return NEXT_STATUS[from];
}

export function nextPaymentStatuses(from: PaymentStatus): readonly PaymentStatus[] {
  return NEXT_PAYMENT_STATUS[from];
}

/** Staying in the same state is not an allowed move, so it is refused like any other. */
export function canMoveStatus(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUS[from].includes(to);
}

export function canMovePaymentStatus(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT_PAYMENT_STATUS[from].includes(to);
}

export function isFinalStatus(status: OrderStatus): boolean {
  return NEXT_STATUS[status].length === 0;
}
