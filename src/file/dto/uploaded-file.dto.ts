/** The answer to an accepted local PUT. */
export class UploadedFileDto {
  /** The object's key in storage. */
  object_key!: string;

  /** The public URL of the stored file. */
  file_url!: string;

  /** Bytes stored. */
  size!: number;

  content_type!: string;
}
