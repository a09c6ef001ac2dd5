import { ApiProperty } from '@nestjs/swagger';

export class ItemOptionCountDto {
  /** The option group's key. */
  group!: string;
  /** The option's key. */
  option!: string;
  /** The option's title as the latest line of the period had it. */
  @ApiProperty({ type: 'string', nullable: true })
  option_title!: string | null;
  /** Units sold with this option. */
  @ApiProperty({ type: 'integer' })
  count!: number;
}

export class ItemReportRowDto {
  @ApiProperty({ format: 'uuid' })
  item_uuid!: string;
  /** The item's title as the latest order line of the period had it. */
  @ApiProperty({ type: 'string', nullable: true })
  title_name!: string | null;
  /** Units sold. */
  @ApiProperty({ type: 'integer' })
  quantity!: number;
  /** The lines' totals (options included, before order discounts). */
  @ApiProperty({ type: 'string', example: '420.00' })
  revenue!: string;
  /** Sales that had the item. */
  @ApiProperty({ type: 'integer' })
  orders!: number;
  /** The options chosen with it, most chosen first. */
  @ApiProperty({ type: [ItemOptionCountDto] })
  options!: ItemOptionCountDto[];
}

export class ItemsReportResponseDto {
  @ApiProperty({ example: 'Africa/Lagos' })
  timezone!: string;
  @ApiProperty({ format: 'date' })
  from!: string;
  @ApiProperty({ format: 'date' })
  to!: string;
  /** Items of the period's sales by revenue, then units; delivery lines are not items. */
  @ApiProperty({ type: [ItemReportRowDto] })
  rows!: ItemReportRowDto[];
}
