import { ApiProperty } from '@nestjs/swagger';
import { GROUP_BYS, GroupBy } from './report-query.dto';

const MONEY = { type: 'string', example: '1250.00' } as const;

/** Sums of the sales (accepted, preparing, ready, out for delivery, completed) of a bucket or the period. */
export class SalesFiguresDto {
  /** Sales: orders accepted, preparing, ready, out for delivery or completed. */
  @ApiProperty({ type: 'integer' })
  orders!: number;
  /** Orders still pending (not yet accepted or refused). */
  @ApiProperty({ type: 'integer' })
  open_orders!: number;
  /** Orders rejected or cancelled; their money is not in the sums. */
  @ApiProperty({ type: 'integer' })
  lost_orders!: number;
  @ApiProperty(MONEY)
  items_subtotal!: string;
  @ApiProperty(MONEY)
  discount!: string;
  @ApiProperty(MONEY)
  service_charge!: string;
  @ApiProperty(MONEY)
  tax!: string;
  @ApiProperty(MONEY)
  tip!: string;
  @ApiProperty(MONEY)
  delivery_fee!: string;
  /** What the sales came to (their order totals). */
  @ApiProperty(MONEY)
  total!: string;
  /** Refunded of those sales. */
  @ApiProperty(MONEY)
  refunded!: string;
  /** total − refunded. */
  @ApiProperty(MONEY)
  net!: string;
  /** total ÷ orders, to the cent; "0.00" without sales. */
  @ApiProperty(MONEY)
  average_order!: string;
}

export class SalesBucketDto extends SalesFiguresDto {
  /** When the bucket begins, local time with the offset of that moment; null for weekdays. */
  @ApiProperty({ type: 'string', nullable: true, example: '2026-11-24T00:00:00+01:00' })
  start!: string | null;
  /** `2026-11-24` (day), `2026-11-24 13:00` (hour), `mon`…`sun` (weekday), `2026-11` (month). */
  @ApiProperty({ example: '2026-11-24' })
  label!: string;
}

export class SalesShareDto {
  @ApiProperty({ type: 'integer' })
  orders!: number;
  @ApiProperty(MONEY)
  total!: string;
}

export class SalesReportResponseDto {
  /** The business's time zone (its opening hours' zone, else UTC): days and hours are local to it. */
  @ApiProperty({ example: 'Africa/Lagos' })
  timezone!: string;
  @ApiProperty({ format: 'date' })
  from!: string;
  @ApiProperty({ format: 'date' })
  to!: string;
  @ApiProperty({ enum: GROUP_BYS })
  group_by!: GroupBy;
  /** Every bucket of the period in order, those without orders with zeros. */
  @ApiProperty({ type: [SalesBucketDto] })
  rows!: SalesBucketDto[];
  @ApiProperty({ type: SalesFiguresDto })
  totals!: SalesFiguresDto;
  /** Sales by payment processor (those with sales in the period). */
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/SalesShareDto' },
    example: { cash: { orders: 12, total: '640.00' } },
  })
  by_payment_processor!: Record<string, SalesShareDto>;
  /**
   * Sales by how their payments were made (`manual`, `checkout`, `ussd`,
   * `mobile_money`, `bank_transfer`): what the paid payments of the sales
   * brought in, and how many sales each channel paid (an order paid through
   * two channels counts in both).
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/SalesShareDto' },
    example: { ussd: { orders: 4, total: '120.00' } },
  })
  by_payment_channel!: Record<string, SalesShareDto>;
  /** Sales by how they were handed over: `dine_in`, `pickup`, `delivery`. */
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/SalesShareDto' },
    example: { dine_in: { orders: 3, total: '90.00' } },
  })
  by_fulfilment_type!: Record<string, SalesShareDto>;
  /**
   * Sales by where the orders came from: `online` (the guests' own), or
   * `phone`, `walk_in`, `waiter` (taken by the team); only channels with sales.
   */
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/SalesShareDto' },
    example: { online: { orders: 5, total: '150.00' }, waiter: { orders: 2, total: '60.00' } },
  })
  by_channel!: Record<string, SalesShareDto>;
}
