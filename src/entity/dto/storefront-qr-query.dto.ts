import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { TABLE_NAME } from '../domain/table-list';

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 512;

/** Digits become a number; anything else is left for @IsInt to refuse. */
const wholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

export class StorefrontQrTableQueryDto {
  /**
   * A table: the code then holds the storefront address with
   * `?table=<table>` (percent-encoded), which a storefront uses to fill the
   * on-premise location. 1–32 letters, digits, spaces, `-` or `_`.
   */
  @ApiProperty({ required: false, example: 'Patio 1' })
  @IsOptional()
  @IsString()
  @Matches(TABLE_NAME, { message: 'table must be 1–32 letters, digits, spaces, - or _' })
  table?: string;
}

export class StorefrontQrSheetQueryDto {
  /**
   * The tables, separated by commas: names (as `table` of the QR code) and
   * ranges `a-b` of whole numbers with a ≤ b; at most 200 tables.
   */
  @ApiProperty({ example: '1-20,Patio 1,Patio 2' })
  @IsString()
  tables!: string;

  /** Printed before each table's name; default `Table`. */
  @ApiProperty({ required: false, default: 'Table', example: 'Table' })
  @IsOptional()
  @IsString()
  @Matches(TABLE_NAME, { message: 'label must be 1–32 letters, digits, spaces, - or _' })
  label?: string;
}

export class StorefrontQrQueryDto extends StorefrontQrTableQueryDto {
  /** Width and height of the PNG in pixels, 128–2048. */
  @ApiProperty({
    type: 'integer',
    required: false,
    minimum: QR_MIN_SIZE,
    maximum: QR_MAX_SIZE,
    default: QR_DEFAULT_SIZE,
  })
  @IsOptional()
  @Transform(wholeNumber)
  @IsInt()
  @Min(QR_MIN_SIZE)
  @Max(QR_MAX_SIZE)
  size?: number;
}
