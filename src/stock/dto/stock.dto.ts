import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export const ADJUST_REASONS = ['restock', 'recount', 'waste', 'correction'] as const;
export type AdjustReason = (typeof ADJUST_REASONS)[number];

export class StockListQueryDto {
  /** The local day of the business; default today. */
  @ApiPropertyOptional({
    format: 'date',
    example: '2026-11-26',
    description: 'The local day of the business (`YYYY-MM-DD`); default today.',
  })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'date must be a day as YYYY-MM-DD' })
  date?: string;
}

export class AdjustStockDto {
  @ApiPropertyOptional({
    example: 10,
    description:
      'Portions added (positive) or taken away (negative); send this or `set`. What remains ' +
      'may not fall below 0 (422).',
  })
  @IsOptional()
  @IsInt()
  @Min(-100000)
  @Max(100000)
  delta?: number;

  @ApiPropertyOptional({
    example: 12,
    description:
      'What remains from now (today’s, for daily stock): what orders took stays taken. Send ' +
      'this or `delta`.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(100000)
  set?: number;

  @ApiProperty({
    enum: ADJUST_REASONS,
    example: 'restock',
    description: 'Why the portions changed.',
  })
  @IsIn(ADJUST_REASONS)
  reason!: AdjustReason;

  @ApiPropertyOptional({ maxLength: 500, example: 'Second pot cooked at noon' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string;
}

export class StockItemResponseDto {
  @ApiProperty({ format: 'uuid' })
  item_uuid!: string;

  @ApiProperty({ nullable: true, type: String })
  title_name!: string | null;

  @ApiProperty({ enum: ['daily', 'count'] })
  mode!: 'daily' | 'count';

  @ApiProperty({
    description: 'The local day counted, for daily stock; null for count stock.',
    nullable: true,
    type: String,
    format: 'date',
  })
  date!: string | null;

  @ApiProperty({ description: 'Portions of the period: the setting’s quantity and adjustments.' })
  quantity!: number;

  @ApiProperty({ description: 'Portions held by orders.' })
  taken!: number;

  @ApiProperty({ description: '`quantity` − `taken`, never below 0.' })
  remaining!: number;

  @ApiProperty({ description: 'Whether `remaining` is at or below `low_at`.' })
  low!: boolean;
}

export class StockLedgerEntryDto {
  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ description: 'Portions added (positive) or taken (negative).' })
  delta!: number;

  @ApiProperty({
    enum: ['order', 'order_returned', ...ADJUST_REASONS],
    description: '`order` and `order_returned` are an order’s take and its return.',
  })
  reason!: string;

  @ApiProperty({ nullable: true, type: String })
  note!: string | null;

  @ApiProperty({ nullable: true, type: String, format: 'uuid' })
  order_uuid!: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'The member who made the change; null for a guest or the service.',
  })
  by!: string | null;

  @ApiProperty({ enum: ['owner', 'manager', 'staff', 'guest', 'provider', 'system'] })
  actor!: string;

  @ApiProperty({
    description: 'The local day the change counted in, for daily stock; null for count stock.',
    nullable: true,
    type: String,
    format: 'date',
  })
  date!: string | null;
}
