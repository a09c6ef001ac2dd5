/**
 * The state of an order's payment: `unpaid` → `pending` (a checkout was
 * opened) → `paid` | `failed`; `paid` → `partially_refunded` | `refunded`;
 * `mismatch` when the provider reports an amount or currency other than the
 * order's (the order stays unpaid and the owner is told).
 */
export const PAYMENT_STATES = [
  'unpaid',
  'pending',
  'paid',
  'failed',
  'mismatch',
  'partially_refunded',
  'refunded',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** Online: the provider collects and confirms the money. Offline: the owner does. */
export type PaymentCollect = 'online' | 'offline';

/** States in which money has come in; a further charge confirmation changes nothing. */
export const SETTLED_STATES: readonly PaymentState[] = ['paid', 'partially_refunded', 'refunded'];

/** Changes the owner hears about; `unpaid` → `pending` is only recorded. */
export const NOTIFIED_STATES: readonly PaymentState[] = [
  'paid',
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
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
      return state;
    default:
      return 'unpaid';
  }
}
