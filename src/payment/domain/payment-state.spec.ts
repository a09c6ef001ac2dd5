import { Money } from '../../common/money';
import {
  canMoveManually,
  derivePaymentState,
  isPaymentStatus,
  nextManualStatuses,
  PAYMENT_STATUSES,
  PaymentFacts,
  paymentStatusOf,
} from './payment-state';

const due = new Money('2000.00');
const none = { amount: new Money(0), count: 0 };
const refunded = (amount: string) => ({ amount: new Money(amount), count: 1 });

function payment(facts: Partial<PaymentFacts>): PaymentFacts {
  return {
    status: 'pending',
    channel: 'checkout',
    amountPaid: '0.00',
    failure: null,
    open: false,
    ...facts,
  };
}
const paid = (amountPaid: string) => payment({ status: 'paid', amountPaid });

describe('the state of an order’s payments', () => {
  it.each([
    ['no payment yet', [], none, 'unpaid'],
    ['money collected offline, not yet recorded', [payment({ channel: 'manual' })], none, 'unpaid'],
    ['a checkout that did not open', [payment({})], none, 'unpaid'],
    ['an open checkout', [payment({ open: true })], none, 'pending'],
    [
      'an open checkout beside a newer one that did not open',
      [payment({ open: true }), payment({})],
      none,
      'pending',
    ],
    ['a failed charge', [payment({ status: 'failed', failure: 'declined' })], none, 'failed'],
    [
      'a charge in another currency',
      [payment({ status: 'failed', failure: 'mismatch' })],
      none,
      'mismatch',
    ],
    [
      'a failed charge then an open one',
      [payment({ status: 'failed' }), payment({ open: true })],
      none,
      'pending',
    ],
    ['part of it paid', [paid('500.00')], none, 'partially_paid'],
    ['all of it paid in two parts', [paid('500.00'), paid('1500.00')], none, 'paid'],
    ['more than due', [paid('2000.00'), paid('2000.00')], none, 'overpaid'],
    ['part given back', [paid('2000.00')], refunded('300.00'), 'partially_refunded'],
    ['all given back', [paid('2000.00')], refunded('2000.00'), 'refunded'],
    [
      'refunds above what was paid count as all',
      [paid('2000.00')],
      refunded('2500.00'),
      'refunded',
    ],
    [
      'overpaid, the difference given back',
      [paid('2000.00'), paid('2000.00')],
      refunded('1000.00'),
      'overpaid',
    ],
    [
      'marked refunded before anything was paid',
      [payment({ status: 'abandoned' })],
      refunded('0'),
      'refunded',
    ],
  ] as const)('%s → %s', (_, payments, refunds, state) => {
    expect(derivePaymentState(payments as readonly PaymentFacts[], refunds, due)).toBe(state);
  });

  it('is paid for an order that costs nothing', () => {
    expect(derivePaymentState([payment({ status: 'paid' })], none, new Money(0))).toBe('paid');
  });

  it('is told in fewer words by payment_status', () => {
    expect(paymentStatusOf('overpaid')).toBe('paid');
    expect(paymentStatusOf('pending')).toBe('unpaid');
    expect(paymentStatusOf('mismatch')).toBe('unpaid');
    expect(paymentStatusOf('partially_paid')).toBe('partially_paid');
  });
});

describe('manual payment moves', () => {
  it('marks what is not paid as paid or refunded, money that came in as refunded, and keeps refunded final', () => {
    expect(nextManualStatuses('unpaid')).toEqual(['paid', 'refunded']);
    expect(nextManualStatuses('partially_paid')).toEqual(['paid', 'refunded']);
    expect(canMoveManually('paid', 'refunded')).toBe(true);
    expect(canMoveManually('paid', 'unpaid')).toBe(false);
    expect(canMoveManually('unpaid', 'unpaid')).toBe(false);
    expect(nextManualStatuses('refunded')).toEqual([]);
    expect(nextManualStatuses('on_tab')).toEqual([]);
  });

  it('recognises only the payment statuses', () => {
    expect(PAYMENT_STATUSES.every(isPaymentStatus)).toBe(true);
    expect(isPaymentStatus('PAID')).toBe(false);
    expect(isPaymentStatus('overpaid')).toBe(false);
  });
});
