import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { parsePrice } from '../../common/money';

/** The owner's refund of an order's payment. */
export class RefundOrderDto {
  /** How much to give back, at most two decimals; none: all that is left (paid − refunded). */
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }],
    required: false,
    example: '12.50',
  })
  @IsOptional()
  @ValidateBy({
    name: 'isRefundAmount',
    validator: {
      validate: (value: unknown) => {
        const amount = parsePrice(value);
        return amount !== null && amount.gt(0);
      },
      defaultMessage: () =>
        'amount must be a positive amount with at most two decimals, e.g. "12.50"',
    },
  })
  amount?: string | number;

  /** Why the money goes back; kept with the refund and sent to the provider. */
  @ApiProperty({ required: false, example: 'Item was sold out' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
