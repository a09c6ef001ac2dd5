import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import { DiscountEntity, DiscountKind } from '../discount.entity';

export const DISCOUNT_KINDS: readonly DiscountKind[] = ['percent', 'fixed'];
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
const DECIMAL = /^\d{1,12}(\.\d{1,4})?$/;

/** Decimal text, or a JSON number read as its decimal text. */
function IsDecimalText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDecimalText',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && DECIMAL.test(value.trim())) ||
          (typeof value === 'number' && Number.isFinite(value) && DECIMAL.test(String(value))),
        defaultMessage: (args) =>
          `${args?.property} must be a non-negative decimal such as "10" or "12.50"`,
      },
    },
    options,
  );
}

const present = (_: unknown, value: unknown) => value !== null && value !== undefined;

export class CreateDiscountDto {
  /** 3–32 of A–Z, 0–9, `-` and `_`; compared without regard to case and kept upper-case. */
  @ApiProperty({ example: 'WELCOME10', pattern: '^[A-Za-z0-9_-]{3,32}$' })
  @IsString()
  @Matches(CODE_PATTERN, { message: 'code must be 3–32 of A-Z, 0-9, - and _' })
  code!: string;

  /** `percent`: value % of the items' subtotal; `fixed`: value off, at most the subtotal. */
  @ApiProperty({ enum: DISCOUNT_KINDS })
  @IsIn(DISCOUNT_KINDS)
  kind!: DiscountKind;

  /** Decimal text (a number is read as its text): percent 0–100 (4 decimals), fixed a positive amount (2 decimals). */
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], example: '10' })
  @IsDecimalText()
  value!: string | number;

  /** The items' subtotal the order must reach (2 decimals). */
  @ApiPropertyOptional({
    type: 'string',
    example: '20.00',
    nullable: true,
    description: 'Decimal text; a JSON number is read as its text.',
  })
  @ValidateIf(present)
  @IsDecimalText()
  minimum_order_amount?: string | number | null;

  /** From this instant (ISO 8601); before `ends_at`. */
  @ApiPropertyOptional({ format: 'date-time', nullable: true })
  @ValidateIf(present)
  @IsISO8601({ strict: true })
  starts_at?: string | null;

  /** Until this instant (ISO 8601), excluded. */
  @ApiPropertyOptional({ format: 'date-time', nullable: true })
  @ValidateIf(present)
  @IsISO8601({ strict: true })
  ends_at?: string | null;

  /** How many orders may use it in all. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true })
  @ValidateIf(present)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  max_redemptions?: number | null;

  /** How many orders of one email address (compared without regard to case) may use it. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, nullable: true })
  @ValidateIf(present)
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  max_redemptions_per_email?: number | null;

  /**
   * Only orders from these menus: when sent, one or more menus of this
   * business (422 otherwise); absent for every menu of the business.
   */
  @ApiPropertyOptional({ type: [String], format: 'uuid', nullable: true, maxItems: 100 })
  @ValidateIf(present)
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  menu_uuids?: string[] | null;

  /** Default true. */
  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** The fields to change; the others keep their values, null clears an optional one. */
export class UpdateDiscountDto extends PartialType(CreateDiscountDto) {}

export class DiscountResponseDto {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;
  @ApiProperty({ format: 'uuid' })
  business_uuid!: string;
  @ApiProperty({ example: 'WELCOME10' })
  code!: string;
  @ApiProperty({ enum: DISCOUNT_KINDS })
  kind!: DiscountKind;
  @ApiProperty({ example: '10' })
  value!: string;
  @ApiProperty({ example: '20.00', nullable: true, type: 'string' })
  minimum_order_amount!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  starts_at!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: 'string' })
  ends_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true })
  max_redemptions!: number | null;
  @ApiProperty({ type: 'integer', nullable: true })
  max_redemptions_per_email!: number | null;
  @ApiProperty({ type: [String], nullable: true })
  menu_uuids!: string[] | null;
  enabled!: boolean;
  /** Orders that used it and did not end rejected or cancelled. */
  @ApiProperty({ type: 'integer' })
  redemptions!: number;
  created_at!: string;
  updated_at!: string;
}

function iso(value: Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export function toDiscountResponse(
  discount: DiscountEntity,
  redemptions: number,
): DiscountResponseDto {
  return {
    uuid: discount.uuid,
    business_uuid: discount.businessUuid,
    code: discount.code,
    kind: discount.kind,
    value: discount.value,
    minimum_order_amount: discount.minimumOrderAmount,
    starts_at: iso(discount.startsAt),
    ends_at: iso(discount.endsAt),
    max_redemptions: discount.maxRedemptions,
    max_redemptions_per_email: discount.maxRedemptionsPerEmail,
    menu_uuids: discount.menuUuids,
    enabled: discount.enabled,
    redemptions,
    created_at: iso(discount.createdAt)!,
    updated_at: iso(discount.updatedAt)!,
  };
}
