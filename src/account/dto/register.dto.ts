import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsEmail,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { MetaData } from '../user.entity';
import { EqualsField, IsJsonContainer, MaxJsonBytes, Trim } from './account-validators';

export const PASSWORD_MIN = 4;
export const PASSWORD_MAX = 256;
export const META_DATA_MAX_BYTES = 16 * 1024;
/** Printable text: no control characters. */
export const PRINTABLE = /^[^\p{Cc}]*$/u;

export type { MetaData } from '../user.entity';

/** What the owner web client sends as meta_data. */
const META_DATA_EXAMPLE = [{ meta_key: 'phone', meta_value: '+233 20 000 0000', extra_data: {} }];

export class RegisterUserDto {
  /** Unique, ignoring letter case (409 otherwise). */
  @Trim()
  @IsEmail()
  @MaxLength(320)
  email!: string;

  /** 4 to 256 characters. */
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  password!: string;

  /** Must equal `password`. */
  @IsString()
  @EqualsField('password')
  password_confirmation!: string;

  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @Matches(PRINTABLE, { message: 'name must not contain control characters' })
  name!: string;

  /** Unique, ignoring letter case (409 otherwise). */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(PRINTABLE, { message: 'username must not contain control characters' })
  username!: string;

  /**
   * Any JSON object or array, up to 16 KiB as JSON; stored with the user as
   * sent (the owner web client sends `[{meta_key, meta_value, extra_data}]`).
   */
  @ApiPropertyOptional({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
    example: META_DATA_EXAMPLE,
  })
  @IsOptional()
  @IsJsonContainer()
  @MaxJsonBytes(META_DATA_MAX_BYTES)
  meta_data?: MetaData;
}
