import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  describePaymentStatusMoves,
  ORDER_STATUSES,
  OrderStatus,
  PAYMENT_STATUSES,
  PaymentStatus,
} from '../domain/order-status';

/** Every field is optional, but at least one of status, payment_status, owner_note is sent. */
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

  /** Optimistic check: when the order's current status differs, 409 and nothing changes. */
  @ApiProperty({ enum: ORDER_STATUSES, required: false })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  expected_status?: OrderStatus;
}
