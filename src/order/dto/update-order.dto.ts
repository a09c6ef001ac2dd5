import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PAYMENT_STATUSES, PaymentStatus } from '../../payment';
import { describePaymentStatusMoves, ORDER_STATUSES, OrderStatus } from '../domain/order-status';

/**
 * Every field is optional, but at least one of status, payment_status,
 * owner_note, estimated_ready_at is sent.
 */
export class UpdateOrderDto {
  /** The next state; only the allowed moves of the order state machine are accepted. */
  @ApiProperty({ enum: ORDER_STATUSES, required: false })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @ApiProperty({
    enum: PAYMENT_STATUSES,
    required: false,
    description: `The owner's manual payment moves: ${describePaymentStatusMoves()}`,
  })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  payment_status?: PaymentStatus;

  /** A note for the owner's own use; an empty string clears it. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  owner_note?: string;

  /**
   * When the kitchen expects the order ready, ISO 8601 with an offset; the
   * guest sees it. Left out when the order is accepted, it is set to the
   * moment of acceptance plus the menu's prep time (an order for now) or to
   * the requested time (an order for later).
   */
  @ApiProperty({ required: false, example: '2026-12-04T19:45:00+01:00' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
    message:
      'estimated_ready_at must be ISO 8601 with an offset, such as 2026-12-04T19:45:00+01:00',
  })
  estimated_ready_at?: string;

  /** Optimistic check: when the order's current status differs, 409 and nothing changes. */
  @ApiProperty({ enum: ORDER_STATUSES, required: false })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  expected_status?: OrderStatus;
}
