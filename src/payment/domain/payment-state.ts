import { Money } from '../../common/money';

/*
 * The one payment vocabulary of the service.
 *
 * A payment is one attempt to collect money for an order (a card checkout, a
 * charge by USSD, mobile money or bank transfer, or money the team records
 * by hand). Its own status is `pending` → `paid` | `failed` | `abandoned`.
 * An order's payment state counts every payment of the order.
 */

/** How the guest pays, as the order names it (its `payment_processor`). */
export const PAYMENT_METHODS = ['cash', 'bank_transfer', 'paystack'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * How a payment is collected: `manual` (cash or a transfer the team records),
 * `checkout` (the provider's card page), or a charge the guest completes
 * without leaving the order page (`ussd`, `mobile_money`, `bank_transfer`).
 */
export const PAYMENT_CHANNELS = [
  'manual',
  'checkout',
  'ussd',
  'mobile_money',
  'bank_transfer',
] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];

/** Online: the provider collects and confirms the money. Offline: the business does. */
export type PaymentCollect = 'online' | 'offline';

/** A payment's own status. */
export const PAYMENT_RECORD_STATUSES = ['pending', 'paid', 'failed', 'abandoned'] as const;
export type PaymentRecordStatus = (typeof PAYMENT_RECORD_STATUSES)[number];

/** Why a payment failed: the provider refused or it expired, or it was paid in another currency. */
export type PaymentFailure = 'declined' | 'expired' | 'mismatch';

/**
 * The state of an order's payment (`payment.status` of an order answer):
 * `unpaid` → `pending` (a checkout or charge is open) → `partially_paid` |
 * `paid` | `overpaid` | `failed`; money that came in goes back as
 * `partially_refunded` | `refunded`; `mismatch` when the provider reported a
 * charge in another currency (nothing is counted and the owner is told).
 */
export const PAYMENT_STATES = [
  'unpaid',
  'pending',
  'partially_paid',
  'paid',
  'overpaid',
  'failed',
  'mismatch',
  'partially_refunded',
  'refunded',
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * The order's `payment_status`: the payment state in fewer words (`on_tab`
 * for a round of a table's tab, paid with the tab).
 */
export const PAYMENT_STATUSES = [
  'unpaid',
  'partially_paid',
  'paid',
  'partially_refunded',
  'refunded',
  'on_tab',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** States in which all the order costs has come in; a guest may not open another payment. */
export const SETTLED_STATES: readonly PaymentState[] = [
  'paid',
  'overpaid',
  'partially_refunded',
  'refunded',
];

/** Changes the owner and the order's followers hear about; opening a payment is only recorded. */
export const NOTIFIED_STATES: readonly PaymentState[] = [
  'partially_paid',
  'paid',
  'overpaid',
  'failed',
  'mismatch',
  'partially_refunded',
  'refunded',
];

/** `payment_status` of a payment state. */
export function paymentStatusOf(state: PaymentState): PaymentStatus {
  switch (state) {
    case 'overpaid':
      return 'paid';
    case 'paid':
    case 'partially_paid':
    case 'partially_refunded':
    case 'refunded':
      return state;
    default:
      return 'unpaid';
  }
}

/** What the state of an order's payments is derived from. */
export interface PaymentFacts {
  status: PaymentRecordStatus;
  channel: PaymentChannel;
  amountPaid: string;
  failure: PaymentFailure | null;
  /** Whether the guest has somewhere to pay (a checkout address, a charge's next action). */
  open: boolean;
}

/**
 * An order's payment state from its payments (oldest first), the refunds
 * counted of them, and what the order costs: money that came in decides
 * (refunds first); with none, a payment the guest can still complete makes
 * it `pending`, else the latest payment says whether it failed.
 */
export function derivePaymentState(
  payments: readonly PaymentFacts[],
  refunds: { amount: Money; count: number },
  due: Money,
): PaymentState {
  const paid = sumPaid(payments);
  const refunded = Money.min(paid, refunds.amount);
  // What was marked refunded by hand before anything was paid.
  if (paid.lte(0) && refunds.count > 0) return 'refunded';
  if (paid.gt(0)) {
    if (refunded.gte(paid)) return 'refunded';
    if (refunded.gt(0)) return paid.minus(refunded).gt(due) ? 'overpaid' : 'partially_refunded';
    if (paid.gt(due)) return 'overpaid';
    return paid.gte(due) ? 'paid' : 'partially_paid';
  }
  if (due.lte(0)) return 'paid';
  if (payments.some((payment) => payment.status === 'pending' && payment.open)) return 'pending';
  const latest = payments.at(-1);
  if (latest?.status === 'failed') return latest.failure === 'mismatch' ? 'mismatch' : 'failed';
  return 'unpaid';
}

/** The sum of what the paid payments brought in. */
export function sumPaid(
  payments: ReadonlyArray<Pick<PaymentFacts, 'status' | 'amountPaid'>>,
): Money {
  return payments.reduce(
    (sum, payment) => (payment.status === 'paid' ? sum.plus(payment.amountPaid) : sum),
    new Money(0),
  );
}

/**
 * The owner's manual moves of `payment_status` for money collected offline:
 * what is not paid may be marked paid (the rest is recorded as one payment)
 * or refunded; money that came in can go back, and a refund is final.
 */
const MANUAL_MOVES: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  unpaid: ['paid', 'refunded'],
  partially_paid: ['paid', 'refunded'],
  paid: ['refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  on_tab: [],
};

/** The statuses the owner may set by hand. */
export const MANUAL_PAYMENT_STATUSES = ['paid', 'refunded'] as const;
export type ManualPaymentStatus = (typeof MANUAL_PAYMENT_STATUSES)[number];

export function nextManualStatuses(from: PaymentStatus): readonly PaymentStatus[] {
  return MANUAL_MOVES[from];
}

export function canMoveManually(from: PaymentStatus, to: PaymentStatus): boolean {
  return MANUAL_MOVES[from].includes(to);
}

/** The manual moves as a table, for the words of the documentation. */
export function manualMoveTable(): Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> {
  return MANUAL_MOVES;
}

export function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}
