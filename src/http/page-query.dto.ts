import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';

/** Page size when a list request names none. */
export const DEFAULT_PER_PAGE = 20;

// R15: page size.
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
