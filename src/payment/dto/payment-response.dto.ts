import { ApiProperty } from '@nestjs/swagger';
import { Money } from '../../common/money';
import {
  PAYMENT_CHANNELS,
  PAYMENT_METHODS,
  PAYMENT_RECORD_STATUSES,
  PAYMENT_STATES,
  PaymentState,
} from '../domain/payment-state';
import type { RefundRow } from '../payment-refund.repository';
import type { PaymentRow } from '../payment.repository';

/** What the guest does next to pay a charge. */
export class NextActionDto {
  /**
   * `dial`: dial `code` on the phone of the bank account; `approve_on_phone`:
   * approve the prompt the mobile money provider sent; `otp`: send the code
   * the guest received (`POST …/payments/{uuid}/otp`); `transfer`: transfer
   * `amount` to `account_number` before `expires_at`.
   */
  @ApiProperty({ enum: ['dial', 'approve_on_phone', 'otp', 'transfer'] })
  type!: string;
  @ApiProperty({ required: false, example: '*737*000*1234#' })
  code?: string;
  @ApiProperty({
    required: false,
    nullable: true,
    example: 'Please complete authorisation on your phone',
  })
  message?: string | null;
  @ApiProperty({ required: false, example: '0123456789' })
  account_number?: string;
  @ApiProperty({ required: false, nullable: true, example: 'Test Bank' })
  bank_name?: string | null;
  @ApiProperty({ required: false, nullable: true, example: 'PAYSTACK CHECKOUT' })
  account_name?: string | null;
  @ApiProperty({ required: false, example: '3500.00' })
  amount?: string;
  @ApiProperty({ required: false, nullable: true, type: String, format: 'date-time' })
  expires_at?: string | null;
}

/** A refund of a payment. */
export class PaymentRefundResponseDto {
  uuid!: string;
  @ApiProperty({ example: '12.50' })
  amount!: string;
  /** `pending` while the provider is asked; `processed` once accepted or recorded; `failed`. */
  @ApiProperty({ enum: ['pending', 'processed', 'failed'] })
  status!: string;
  created_at!: string;
}

/** One attempt to collect money for the order. */
export class PaymentRecordResponseDto {
  uuid!: string;
  @ApiProperty({ enum: PAYMENT_METHODS })
  method!: string;
  /** `manual` (recorded by the business), `checkout` (card page) or a charge channel. */
  @ApiProperty({ enum: PAYMENT_CHANNELS })
  channel!: string;
  @ApiProperty({ enum: PAYMENT_RECORD_STATUSES })
  status!: string;
  /** What this attempt asks for. */
  @ApiProperty({ example: '3500.00' })
  amount!: string;
  /** What came in; "0.00" until paid. */
  @ApiProperty({ example: '0.00' })
  amount_paid!: string;
  @ApiProperty({ type: String, nullable: true, example: 'K7Q2-9XD4-2' })
  reference!: string | null;
  @ApiProperty({ type: NextActionDto, nullable: true })
  next_action!: NextActionDto | null;
  /** Why the attempt did not succeed; null otherwise. */
  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paid_at!: string | null;
  created_at!: string;
  @ApiProperty({ type: [PaymentRefundResponseDto] })
  refunds!: PaymentRefundResponseDto[];
}

/** The payment of an order: how it is collected, where it stands, and the money counted so far. */
export class PaymentResponseDto {
  /** The order's payment_processor. */
  @ApiProperty({ example: 'paystack' })
  provider!: string;
  /** `online`: the provider collects and confirms the money; `offline`: the business does. */
  @ApiProperty({ enum: ['online', 'offline'] })
  collect!: string;
  /**
   * Counts every payment of the order: unpaid → pending (a checkout or charge
   * is open) → partially_paid | paid | overpaid | failed; money that came in
   * goes back as partially_refunded | refunded; mismatch when the provider
   * reported a charge in another currency (nothing counted, the owner told).
   */
  @ApiProperty({ enum: PAYMENT_STATES })
  status!: string;
  /** The reference of the latest checkout or charge the guest could pay (unique per attempt). */
  @ApiProperty({ type: String, nullable: true, example: 'K7Q2-9XD4-1' })
  reference!: string | null;
  /** Where to send the guest to pay by card; null when no checkout is open. */
  @ApiProperty({ type: String, nullable: true, example: 'https://checkout.paystack.com/abc123' })
  authorization_url!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'abc123' })
  access_code!: string | null;
  /**
   * For bank transfer: the menu's entry as the owner wrote it (`title`,
   * `description`, and `account_name`, `account_number`, `bank_name` when present).
   */
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string', nullable: true },
    example: null,
  })
  instructions!: Record<string, unknown> | null;
  /** ISO 4217 code when the menu names one, else its ticker as stored. */
  @ApiProperty({ type: String, nullable: true, example: 'NGN' })
  currency!: string | null;
  @ApiProperty({ example: '3500.00' })
  amount_due!: string;
  @ApiProperty({ example: '0.00' })
  amount_paid!: string;
  @ApiProperty({ example: '0.00' })
  amount_refunded!: string;
  /** When what came in first reached what the order costs. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paid_at!: string | null;
  /** Why the latest attempt to open or confirm a payment did not succeed; null otherwise. */
  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;
}

/** What an order answer's payment block reads of the order itself (its read model). */
export interface OrderPaymentFacts {
  paymentProcessor: string;
  currency: string | null;
  amount: string;
  paymentState: PaymentState;
  amountPaid: string;
  amountRefunded: string;
}

/** An order's payments and their refunds, oldest first. */
export interface PaymentsOfOrder {
  payments: readonly PaymentRow[];
  refunds: readonly RefundRow[];
}

function money(value: string | number | null | undefined): string {
  return new Money(value ?? 0).toFixed(2);
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** Whether the guest has somewhere to pay this attempt: a checkout page or a charge's next step. */
export function isOpen(payment: Pick<PaymentRow, 'authorizationUrl' | 'nextAction'>): boolean {
  return payment.authorizationUrl !== null || payment.nextAction !== null;
}

/** When what was paid first reached `due`, walking the paid payments in the order they were paid. */
function paidAt(payments: readonly PaymentRow[], due: Money): string | null {
  const paid = payments
    .filter((payment) => payment.status === 'paid' && payment.paidAt)
    .sort((a, b) => new Date(a.paidAt!).getTime() - new Date(b.paidAt!).getTime());
  let sum = new Money(0);
  for (const payment of paid) {
    sum = sum.plus(payment.amountPaid);
    if (sum.gte(due)) return iso(payment.paidAt);
  }
  return null;
}

// R30: the payment block.
/**
 * The payment block of every order answer: the order's read model (state
 * and amounts) and its latest attempt. Reference and checkout address are
 * the latest attempt the guest could pay (one that was opened, paid or
 * failed), so a new attempt whose opening failed leaves the earlier one
 * shown beside its error.
 */
export function toPaymentResponse(
  order: OrderPaymentFacts,
  { payments }: PaymentsOfOrder,
): PaymentResponseDto {
  const latest = payments.at(-1);
  const shown = [...payments]
    .reverse()
    .find(
      (p) => p.status === 'paid' || p.status === 'failed' || (p.status === 'pending' && isOpen(p)),
    );
  const instructions = [...payments].reverse().find((p) => p.instructions)?.instructions ?? null;
  return {
    provider: order.paymentProcessor,
    collect: latest && latest.channel !== 'manual' ? 'online' : 'offline',
    status: order.paymentState,
    reference: shown?.reference ?? null,
    authorization_url: shown?.authorizationUrl ?? null,
    access_code: shown?.accessCode ?? null,
    instructions,
    currency: order.currency,
    amount_due: money(order.amount),
    amount_paid: money(order.amountPaid),
    amount_refunded: money(order.amountRefunded),
    paid_at: paidAt(payments, new Money(order.amount)),
    error: latest?.error ?? null,
  };
}

function refundStatus(status: RefundRow['status']): string {
  return status === 'succeeded' ? 'processed' : status;
}

/** The order answer's `payments`, oldest first, each with its refunds. */
export function toPaymentRecords({
  payments,
  refunds,
}: PaymentsOfOrder): PaymentRecordResponseDto[] {
  return payments.map((payment) => ({
    uuid: payment.uuid,
    method: payment.method,
    channel: payment.channel,
    status: payment.status,
    amount: money(payment.amount),
    amount_paid: money(payment.amountPaid),
    reference: payment.reference,
    next_action: (payment.nextAction as NextActionDto | null) ?? null,
    error: payment.error,
    paid_at: iso(payment.paidAt),
    created_at: iso(payment.createdAt)!,
    refunds: refunds
      .filter((refund) => refund.paymentUuid === payment.uuid)
      .map((refund) => ({
        uuid: refund.uuid,
        amount: money(refund.amount),
        status: refundStatus(refund.status),
        created_at: iso(refund.createdAt)!,
      })),
  }));
}
