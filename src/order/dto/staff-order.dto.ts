import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsOptional, IsUUID, MaxLength } from 'class-validator';
import { STAFF_CHANNELS, StaffChannel } from '../entities/order.entity';
import { PlaceOrderDto } from './place-order.dto';

/**
 * An order the team takes (by phone, at the counter, at the table): the
 * guest's order body with the email optional, and where it came from.
 */
export class StaffOrderDto extends OmitType(PlaceOrderDto, [
  'customer_email_address',
  'tab_token',
] as const) {
  /** The guest's address, when they gave one (for the copy of the order and discount limits). */
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  customer_email_address?: string;

  /** How the order reached the team. */
  @ApiProperty({ enum: STAFF_CHANNELS, example: 'waiter' })
  @IsIn(STAFF_CHANNELS)
  channel!: StaffChannel;

  /** Place it accepted at once (its kitchen tickets made now); pending when left out. */
  @IsOptional()
  @IsBoolean()
  accept?: boolean;

  /**
   * Make it a round of this open tab of the business. A dine-in order for a
   * table whose tab is open joins that tab without it.
   */
  @IsOptional()
  @IsUUID('all')
  tab_uuid?: string;
}
