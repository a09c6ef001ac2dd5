import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NullIsAValue } from '../../http/validation';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';

export const ENTITY_STATUSES = ['enabled', 'disabled'] as const;
export type EntityStatus = (typeof ENTITY_STATUSES)[number];

/** 64 KiB of text for the long free-text columns. */
const LONG_TEXT = 64 * 1024;

const numberAsString = ({ value }: { value: unknown }) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

/**
 * The owner web client's status dropdown sends its labels, `Enable` and
 * `Disable`, in any letter case: they are taken as `enabled`/`disabled` and
 * stored as such. Other values are left for @IsIn to refuse.
 */
export const normaliseStatus = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  if (lower === 'enable' || lower === 'enabled') return 'enabled';
  if (lower === 'disable' || lower === 'disabled') return 'disabled';
  return value;
};

const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * The body of create (POST) and update (PUT). On update, fields sent replace
 * the stored ones (null clears a field marked NullIsAValue) and fields left
 * out keep theirs; `extra_data` is replaced whole. Server-owned fields (`uuid`, `entity_type`, `created_at`,
 * `updated_at`, `trashed_at`) and unknown fields are ignored.
 */
export class EntityBodyDto {
  /**
   * Client-generated (often a timestamp-like string; a number is accepted).
   * The same owner creating the same type with the same request_id again gets
   * the first record back with 200. Ignored on update.
   */
  @IsOptional()
  @NullIsAValue()
  @Transform(numberAsString)
  @IsString()
  @MaxLength(128)
  request_id?: string | null;

  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(255)
  slug?: string | null;

  /**
   * The name used in the storefront URL; required for a business and a menu.
   * Unique among live businesses, ignoring case, and among the live menus of
   * one business (409 otherwise). At most 120 characters (Unicode code
   * points) when written; a longer key stored earlier is kept until changed.
   */
  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(255)
  meta_key?: string | null;

  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(LONG_TEXT)
  meta_value?: string | null;

  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(255)
  title_name?: string | null;

  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(LONG_TEXT)
  description?: string | null;

  /** Public http(s) URL of the uploaded image, or empty. */
  @ValidateIf((body: EntityBodyDto) => present(body.entity_featured_url))
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  entity_featured_url?: string | null;

  /**
   * Default `enabled`; only enabled records are shown to the public.
   * `Enable`/`Disable` in any letter case are accepted and stored as
   * `enabled`/`disabled`.
   */
  @ValidateIf((body: EntityBodyDto) => body.status !== undefined && body.status !== null)
  @Transform(normaliseStatus)
  @IsIn(ENTITY_STATUSES, { message: 'status must be enabled or disabled' })
  @ApiProperty({ enum: ENTITY_STATUSES, required: false, default: 'enabled' })
  status?: EntityStatus;

  /** May be left out (then it is the caller); anything but the caller's uuid is 403. */
  @IsOptional()
  @IsString()
  owned_by?: string | null;

  /**
   * A menu's parent is `{ns}_business`, an item's `{ns}_business_menu`;
   * left out, it is taken to be that type. Another type is 400.
   */
  @IsOptional()
  @NullIsAValue()
  @IsString()
  @MaxLength(64)
  parent_entity_type?: string | null;

  /** The caller's business (for a menu) or menu (for an item): 404 missing, 403 someone else's. */
  @ValidateIf((body: EntityBodyDto) => present(body.parent_entity_uuid))
  @IsUUID('all')
  parent_entity_uuid?: string | null;

  /**
   * Per-type data, validated and normalised per type: integers
   * sent as strings are stored as integers, `unit_price_amount` as a decimal
   * string; unknown keys are kept; at most 64 KiB.
   */
  @IsOptional()
  @NullIsAValue()
  @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  extra_data?: Record<string, unknown> | null;
}
