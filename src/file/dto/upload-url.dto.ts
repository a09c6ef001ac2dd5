import { ApiProperty } from '@nestjs/swagger';
import { PresignedUpload } from '../storage/storage-driver';

export class UploadUrlDto {
  /** PUT the file's bytes here, with the headers below, before expires_at. */
  upload_url!: string;

  @ApiProperty({ enum: ['PUT'] })
  method!: 'PUT';

  /** Headers the PUT must carry. */
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'Content-Type': 'image/png' },
  })
  headers!: Record<string, string>;

  /** The public URL of the file once uploaded; store it in entity_featured_url. */
  file_url!: string;

  /** The object's key in storage: `<user uuid>/<directory>/<random>-<name>`. */
  object_key!: string;

  /** When upload_url stops working (ISO 8601). */
  expires_at!: string;
}

export function toUploadUrlResponse(
  key: string,
  upload: PresignedUpload,
  fileUrl: string,
): UploadUrlDto {
  return {
    upload_url: upload.url,
    method: upload.method,
    headers: upload.headers,
    file_url: fileUrl,
    object_key: key,
    expires_at: upload.expiresAt.toISOString(),
  };
}
