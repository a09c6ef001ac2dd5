import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { ENTITY_STATUSES, EntityStatus } from './entity-body.dto';

/** Larger pages are cut to this, not refused. */
export const MAX_PER_PAGE = 1000;
export const DEFAULT_PER_PAGE = 20;

/** A column, or extra_data.<key>; checked here, so that no other text ever reaches ORDER BY. */
export const SORT_BY =
  /^(uuid|created_at|updated_at|title_name|meta_key|status|extra_data\.[A-Za-z0-9_]{1,64})$/;

/** An empty query value counts as not sent (clients send `owned_by=`). */
const blankAsMissing = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** Digits become a number; anything else is left for @IsInt to refuse. */
const wholeNumber = ({ value }: { value: unknown }) => {
  if (value === '' || value === undefined) return undefined;
  return typeof value === 'string' && /^\d{1,30}$/.test(value) ? Number(value) : value;
};

export class ListEntitiesQueryDto {
  @IsOptional()
  @Transform(blankAsMissing)
  @IsUUID('all')
  owned_by?: string;

  @IsOptional()
  @Transform(blankAsMissing)
  @IsString()
  @MaxLength(64)
  parent_entity_type?: string;

  @IsOptional()
  @Transform(blankAsMissing)
  @IsUUID('all')
  parent_entity_uuid?: string;

  @IsOptional()
  @Transform(blankAsMissing)
  @IsIn(ENTITY_STATUSES)
  @ApiProperty({ enum: ENTITY_STATUSES, required: false })
  status?: EntityStatus;

  /** Exact match, ignoring case. */
  @IsOptional()
  @Transform(blankAsMissing)
  @IsString()
  @MaxLength(255)
  meta_key?: string;

  @IsOptional()
  @Transform(blankAsMissing)
  @IsString()
  @MaxLength(255)
  slug?: string;

  /** Case-insensitive match anywhere in title_name or meta_key. */
  @IsOptional()
  @Transform(blankAsMissing)
  @IsString()
  @MaxLength(255)
  q?: string;

  /** From 1. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  @ApiProperty({ type: 'integer', minimum: 1, default: 1, required: false })
  page?: number;

  /** Default 20; values above 1000 are cut to 1000, not refused. */
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(1)
  @ApiProperty({ type: 'integer', minimum: 1, default: DEFAULT_PER_PAGE, required: false })
  per_page?: number;

  /**
   * `uuid`, `created_at` (default), `updated_at`, `title_name`, `meta_key`,
   * `status`, or `extra_data.<key>` with `<key>` of 1–64 letters, digits or
   * `_`. Numeric values sort as numbers. Ties break on created_at, then uuid.
   */
  @IsOptional()
  @Transform(blankAsMissing)
  @IsString()
  @Matches(SORT_BY, {
    message:
      'sort_by must be uuid, created_at, updated_at, title_name, meta_key, status or extra_data.<key> (letters, digits, _; at most 64).',
  })
  @ApiProperty({ required: false, default: 'created_at', pattern: SORT_BY.source })
  sort_by?: string;

  @IsOptional()
  @Transform(({ value }) =>
    typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined,
  )
  @IsIn(['asc', 'desc'])
  @ApiProperty({ enum: ['asc', 'desc'], required: false, default: 'asc' })
  sort_order?: 'asc' | 'desc';
}

export class RetrieveByMetaKeyQueryDto {
  /** Narrows the match to the children of this parent (a menu's meta_key is unique only within its business). */
  @IsOptional()
  @Transform(blankAsMissing)
  @IsUUID('all')
  parent_entity_uuid?: string;
}
