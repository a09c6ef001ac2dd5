import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsEmail, IsOptional, MaxLength, ValidateBy } from 'class-validator';
import { parseAmount } from '../../common/money';
import { ErrorDetailDto } from '../../http/envelope.dto';
import { OrderPricingDto } from './order-pricing.dto';
import { PlaceOrderDto } from './place-order.dto';

/**
 * An order body to price: the same as placement's, but `amount` and
 * `customer_email_address` may be left out (without the email, a code's
 * limit per email address is not checked).
 */
export class QuoteOrderDto extends OmitType(PlaceOrderDto, [
  'amount',
  'customer_email_address',
] as const) {
  /** When sent, compared with the total as placement would (a problem on `amount` otherwise). */
  @ApiPropertyOptional({ oneOf: [{ type: 'number' }, { type: 'string' }], example: 59.97 })
  @IsOptional()
  @ValidateBy({
    name: 'isAmount',
    validator: {
      validate: (value: unknown) => parseAmount(value) !== null,
      defaultMessage: () => 'amount must be a non-negative number or decimal text such as "12.50"',
    },
  })
  amount?: number | string;

  @ApiPropertyOptional({ example: 'guest@example.com' })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  customer_email_address?: string;
}

export class OrderQuoteResponseDto {
  /** The price placement would give; null when the cart itself cannot be priced. */
  @ApiProperty({ type: OrderPricingDto, nullable: true })
  pricing!: OrderPricingDto | null;
  /** What placement would refuse with 422, each naming its field; [] when it would be placed. */
  @ApiProperty({ type: [ErrorDetailDto] })
  problems!: Array<Record<string, unknown>>;
}
