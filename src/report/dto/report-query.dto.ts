import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export const GROUP_BYS = ['day', 'hour', 'weekday', 'month'] as const;
export type GroupBy = (typeof GROUP_BYS)[number];

/** Items listed by the items report unless `limit` says otherwise, and the most it lists. */
export const DEFAULT_ITEMS_LIMIT = 20;
export const MAX_ITEMS_LIMIT = 100;

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const DATE_MESSAGE = { message: '$property must be a date written YYYY-MM-DD' };

const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

/** A period of whole days in the business's time zone. */
export class ReportPeriodQueryDto {
  /** The first local day of the period (YYYY-MM-DD), counted. */
  @ApiProperty({ format: 'date', example: '2026-11-01' })
  @IsString()
  @Matches(DATE_TEXT, DATE_MESSAGE)
  from!: string;

  /** The last local day of the period (YYYY-MM-DD), counted; at most 366 days after `from` with both counted. */
  @ApiProperty({ format: 'date', example: '2026-11-30' })
  @IsString()
  @Matches(DATE_TEXT, DATE_MESSAGE)
  to!: string;
}

export class SalesReportQueryDto extends ReportPeriodQueryDto {
  /** The buckets: local days (default), hours, weekdays (Monday first) or months. */
  @ApiPropertyOptional({ enum: GROUP_BYS, default: 'day' })
  @IsOptional()
  @IsIn(GROUP_BYS, { message: 'group_by must be day, hour, weekday or month' })
  group_by?: GroupBy;
}

export class ItemsReportQueryDto extends ReportPeriodQueryDto {
  /** How many items, by revenue (default 20, at most 100). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_ITEMS_LIMIT, default: 20 })
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @Max(MAX_ITEMS_LIMIT)
  limit?: number;
}

export class ExportOrdersQueryDto extends ReportPeriodQueryDto {
  /** `true`: one row per order line (the order's columns repeated) instead of one per order. */
  @ApiPropertyOptional({ type: 'boolean', default: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'lines must be true or false' })
  lines?: boolean;
}
