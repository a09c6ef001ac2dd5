import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsUUID, Min } from 'class-validator';
import { ORDER_STATUSES, OrderStatus } from '../domain/order-status';

/** Page sizes above this are cut to it, not refused. */
export const MAX_PER_PAGE = 1000;

/** Query values arrive as text; whole numbers become numbers, anything else is left to fail validation. */
const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;

const toPageSize = (params: { value: unknown }) => {
  const value = toWholeNumber(params);
  return typeof value === 'number' && value > MAX_PER_PAGE ? MAX_PER_PAGE : value;
};

export class PageQueryDto {
  /** From 1. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @ApiPropertyOptional({ type: 'integer', example: 1 })
  page?: number;

  /** Default 20; values above 1000 are cut to 1000, not refused. */
  @IsOptional()
  @Transform(toPageSize)
  @IsInt()
  @Min(1)
  @ApiPropertyOptional({ type: 'integer', example: 20 })
  per_page?: number;
}

export class ListOrdersQueryDto extends PageQueryDto {
  @ApiProperty({ enum: ORDER_STATUSES, required: false })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @IsOptional()
  @IsUUID('all')
  business_uuid?: string;

  @IsOptional()
  @IsUUID('all')
  menu_uuid?: string;

  /** Orders placed at or after this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  /** Orders placed at or before this instant (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class StreamOrdersQueryDto {
  /** Only this business's orders: one the caller owns or works for. */
  @IsOptional()
  @IsUUID('all')
  business_uuid?: string;
}
