import { ApiProperty } from '@nestjs/swagger';
/** The answer to an accepted local PUT. */
export class UploadedFileDto {
  /** The object's key in storage. */
  object_key!: string;

  /** The public URL of the stored file. */
  file_url!: string;

  /** Bytes stored. */
  @ApiProperty({ type: 'integer' })
  size!: number;

  content_type!: string;
}
