import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { IsJsonContainer, MaxJsonBytes, Trim } from './account-validators';
import { META_DATA_MAX_BYTES, MetaData, PRINTABLE } from './register.dto';

/** Fields sent replace the stored ones; `meta_data` is replaced whole. Email and password change elsewhere. */
export class UpdateUserDto {
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @Matches(PRINTABLE, { message: 'name must not contain control characters' })
  name?: string | null;

  /** Unique, ignoring letter case (409 otherwise). */
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(PRINTABLE, { message: 'username must not contain control characters' })
  username?: string | null;

  /** Any JSON object or array, up to 16 KiB; stored as sent. Here null is a value: it clears it. */
  @ApiPropertyOptional({
    // OpenAPI 3.0 ties `nullable` to a `type`, so null is allowed on the object branch
    // (and the property's type leaves `| null` out, which would put it beside `oneOf`).
    oneOf: [
      { type: 'object', additionalProperties: true, nullable: true },
      { type: 'array', items: {} },
    ],
  })
  @ValidateIf((_dto: UpdateUserDto, value: unknown) => value !== undefined && value !== null)
  @IsJsonContainer()
  @MaxJsonBytes(META_DATA_MAX_BYTES)
  meta_data?: MetaData;
}
