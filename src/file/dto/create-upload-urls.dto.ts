import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ALLOWED_UPLOAD_TYPES,
  DIRECTORY_PATTERN,
  MAX_DIRECTORY_LENGTH,
  UploadType,
} from '../upload-rules';

export const MAX_FILES_PER_REQUEST = 10;

/** Media types are case-insensitive; they are compared and stored in lower case. */
const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class UploadFileRequestDto {
  /** The original file name; reduced to safe characters for the object key. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  file_name!: string;

  /** The file's media type; only these image types are accepted. */
  @ApiProperty({ enum: ALLOWED_UPLOAD_TYPES, example: 'image/png' })
  @Transform(lowerCase)
  @IsString()
  @IsIn(ALLOWED_UPLOAD_TYPES, {
    message: `file_type must be one of ${ALLOWED_UPLOAD_TYPES.join(', ')}`,
  })
  file_type!: UploadType;

  /** Size in bytes, 1 up to MAX_UPLOAD_BYTES (default 5 MiB). */
  @ApiProperty({ type: 'integer', minimum: 1, example: 20480 })
  @IsInt()
  @Min(1)
  file_size!: number;

  /** Only public objects are issued. */
  @ApiProperty({ enum: ['public'], required: false, default: 'public' })
  @IsOptional()
  @IsIn(['public'], { message: 'visibility must be public' })
  visibility?: 'public';

  /**
   * A relative folder such as `business/logo/<your user uuid>`. No leading
   * `/`, no `..`; the key always lives under the caller's own uuid, and
   * naming another user's uuid is refused.
   */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DIRECTORY_LENGTH)
  @Matches(DIRECTORY_PATTERN, {
    message:
      "directory must be a relative path of up to 8 segments of letters, digits, '.', '_' or '-' (no leading '/', no '..')",
  })
  directory?: string;
}

export class CreateUploadUrlsDto {
  /** 1 to 10 files; the answer has one entry per file, in the same order. */
  @ApiProperty({ type: [UploadFileRequestDto], minItems: 1, maxItems: MAX_FILES_PER_REQUEST })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FILES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => UploadFileRequestDto)
  files!: UploadFileRequestDto[];

  /** Lifetime of the upload URLs in seconds; clamped to 60–3600 (default 900). */
  @ApiProperty({ type: 'integer', required: false, example: 3600 })
  @IsOptional()
  @IsInt()
  expires_in?: number;
}
