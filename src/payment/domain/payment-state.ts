import { Money } from '../../common/money';

/**
 * The state of an order's payment: `unpaid` → `pending` (a checkout was
 * opened) → `paid` | `failed`; `paid` → `partially_refunded` | `refunded`;
 * `mismatch` when the provider reports an amount or currency other than the
 * order's (the order stays unpaid and the owner is told); `overpaid` when
 * more than one checkout of the order was paid (the guest paid twice: every
 * charge counts in `amount_paid` and the owner refunds the difference).
 */
export const PAYMENT_STATES = [
  'unpaid',
  'pending',
  'paid',
  'overpaid',
  'failed',
  'mismatch',
  'partially_refunded',
  'refunded',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** Online: the provider collects and confirms the money. Offline: the owner does. */
export type PaymentCollect = 'online' | 'offline';

/** States in which money has come in; a further charge confirmation changes nothing. */
export const SETTLED_STATES: readonly PaymentState[] = [
  'paid',
  'overpaid',
  'partially_refunded',
  'refunded',
];

/** Changes the owner hears about; `unpaid` → `pending` is only recorded. */
export const NOTIFIED_STATES: readonly PaymentState[] = [
  'paid',
  'overpaid',
  'failed',
  'mismatch',
  'partially_refunded',
  'refunded',
];

/** The order's `payment_status` mirrors the payment state in four values. */
export function mirroredPaymentStatus(
  state: PaymentState,
): 'unpaid' | 'paid' | 'partially_refunded' | 'refunded' {
  switch (state) {
    case 'overpaid':
      return 'paid';
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
      return state;
    default:
      return 'unpaid';
  }
}

/**
 * The state once `refunded` of `paid` has been given back, for an order of
 * `due`: all of it → `refunded`; still more kept than the order costs (a
 * double charge not yet refunded in full) → `overpaid`; else
 * `partially_refunded`.
 */
export function stateAfterRefund(paid: Money, refunded: Money, due: Money): PaymentState {
  if (refunded.gte(paid)) return 'refunded';
  if (paid.minus(refunded).gt(due)) return 'overpaid';
  return 'partially_refunded';
}
