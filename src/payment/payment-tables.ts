import { jsonb, queryBuilder, sql, Table } from '../database/query-builder';
import { PaymentEntity, PaymentEventEntity } from './entities';
import { PaymentRefundTable } from './payment-refund.repository';

/*
 * The payment tables as the payment module's statements see them, and how
 * a new payment or a change of one becomes their columns.
 */

export type PaymentRow = PaymentEntity;

type PaymentTable = Table<
  PaymentEntity,
  | 'uuid'
  | 'shareUuid'
  | 'status'
  | 'amountPaid'
  | 'tipAmount'
  | 'currency'
  | 'reference'
  | 'transactionId'
  | 'nextAction'
  | 'authorizationUrl'
  | 'accessCode'
  | 'callbackUrl'
  | 'instructions'
  | 'error'
  | 'failure'
  | 'paidAt'
  | 'expiresAt'
  | 'nextCheckAt'
  | 'recordedBy'
  | 'createdAt'
  | 'updatedAt'
>;

export const db = queryBuilder<{
  payments: PaymentTable;
  paymentRefunds: PaymentRefundTable;
  paymentEvents: Table<PaymentEventEntity, 'id' | 'paymentUuid' | 'createdAt'>;
}>();

/** A new payment: what its insert names (the database fills in the rest). */
export type NewPayment = Pick<
  PaymentEntity,
  'orderUuid' | 'businessUuid' | 'method' | 'channel' | 'amount' | 'currency'
> &
  Partial<Omit<PaymentEntity, 'nextAction' | 'instructions' | 'createdAt' | 'updatedAt'>> & {
    nextAction?: Record<string, unknown> | null;
    instructions?: Record<string, unknown> | null;
  };

/** What a payment's change may set. */
export type PaymentChanges = Partial<
  Omit<PaymentEntity, 'uuid' | 'orderUuid' | 'businessUuid' | 'createdAt' | 'updatedAt'>
>;

export interface NewProviderEvent {
  provider: string;
  eventKey: string;
  eventType: string;
  reference: string;
  /** Null for a payment of a tab's share. */
  orderUuid: string | null;
  paymentUuid: string | null;
  outcome: string;
  detail: Record<string, unknown>;
}

export function values(payment: NewPayment) {
  return {
    ...payment,
    nextAction: jsonb(payment.nextAction ?? null),
    instructions: jsonb(payment.instructions ?? null),
  };
}

/** The columns of a change, its documents as jsonb and `updated_at` moved. */
export function changes(set: PaymentChanges) {
  const { nextAction, instructions, ...rest } = set;
  return {
    ...rest,
    ...(nextAction === undefined ? {} : { nextAction: jsonb(nextAction) }),
    ...(instructions === undefined ? {} : { instructions: jsonb(instructions) }),
    updatedAt: sql<Date>`now()`,
  };
}

/** An open checkout a newer one replaces. */
export const ABANDONED = {
  status: 'abandoned',
  nextCheckAt: null,
  updatedAt: sql<Date>`now()`,
} as const;
