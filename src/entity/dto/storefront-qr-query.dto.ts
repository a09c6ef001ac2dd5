import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const QR_MIN_SIZE = 128;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 512;

/** Digits become a number; anything else is left for @IsInt to refuse. */
const wholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value;

export class StorefrontQrQueryDto {
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
