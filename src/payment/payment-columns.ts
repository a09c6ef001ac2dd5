import type { OrderEntity } from '../order';

/**
 * The payment's columns of an order. The payment module alone writes them
 * (through its repository, under its transitions); an order update cannot
 * name them, and a payment change cannot name any other column.
 */
export const PAYMENT_COLUMNS = [
  'paymentStatus',
  'paymentState',
  'paymentReference',
  'paymentAttempts',
  'paymentAuthorizationUrl',
  'paymentAccessCode',
  'paymentCallbackUrl',
  'amountPaid',
  'amountRefunded',
  'paidAt',
  'paymentTransactionId',
  'paymentError',
] as const satisfies ReadonlyArray<keyof OrderEntity>;

export type PaymentColumn = (typeof PAYMENT_COLUMNS)[number];

/** A change of an order's payment: payment columns only. */
export type PaymentColumns = Partial<Pick<OrderEntity, PaymentColumn>>;
