import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { MaxJsonBytes, Trim } from './account-validators';
import { META_DATA_MAX_BYTES, PRINTABLE } from './register.dto';

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

  /** Any JSON object, up to 16 KiB; null clears it. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  @MaxJsonBytes(META_DATA_MAX_BYTES)
  meta_data?: Record<string, unknown> | null;
}
