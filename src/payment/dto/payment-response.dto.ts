import { ApiProperty } from '@nestjs/swagger';
import type { OrderEntity } from '../../order';
import { Money } from '../../common/money';
import { PAYMENT_STATES } from '../domain/payment-state';

/** The payment of an order: how it is collected, where it stands, and the money counted so far. */
export class PaymentResponseDto {
  /** The order's payment_processor. */
  @ApiProperty({ example: 'paystack' })
  provider!: string;
  /** `online`: the provider collects and confirms the money; `offline`: the owner does. */
  @ApiProperty({ enum: ['online', 'offline'] })
  collect!: string;
  /**
   * unpaid → pending (a checkout was opened) → paid | failed; paid →
   * partially_refunded | refunded; mismatch when the provider reported another
   * amount or currency (the order stays unpaid and the owner is told).
   */
  @ApiProperty({ enum: PAYMENT_STATES })
  status!: string;
  /** The reference of the latest checkout (unique per attempt), or of the paid one. */
  @ApiProperty({ type: String, nullable: true, example: 'K7Q2-9XD4-1' })
  reference!: string | null;
  /** Where to send the guest to pay; null when no checkout is open. */
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
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  paid_at!: string | null;
  /** Why the last attempt to open or confirm the payment did not succeed; null otherwise. */
  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;
}

function money(value: string | number | null | undefined): string {
  return new Money(value ?? 0).toFixed(2);
}

// R30: the payment block.
/** The payment block of every order answer, from the order row alone. */
export function toPaymentResponse(order: OrderEntity): PaymentResponseDto {
  return {
    provider: order.paymentProcessor,
    collect: order.paymentCollect ?? 'offline',
    status: order.paymentState ?? 'unpaid',
    reference: order.paymentReference ?? null,
    authorization_url: order.paymentAuthorizationUrl ?? null,
    access_code: order.paymentAccessCode ?? null,
    instructions: order.paymentInstructions ?? null,
    currency: order.currency,
    amount_due: money(order.amount),
    amount_paid: money(order.amountPaid),
    amount_refunded: money(order.amountRefunded),
    paid_at: order.paidAt ? new Date(order.paidAt).toISOString() : null,
    error: order.paymentError ?? null,
  };
}
