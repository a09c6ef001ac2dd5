import { Client } from 'minio';
import { S3Config } from '../../config/config';
import { encodeKey, keyUnderBase } from '../upload-rules';
import { PresignedUpload, PresignRequest, StorageDriver, StoredObject } from './storage-driver';

/**
 * MinIO or any S3-compatible store through the `minio` client, path-style.
 * The region is configured, so presigning is pure computation: no request
 * to the store per upload URL.
 *
 * A presigned PUT signs the host only: it cannot bind the type or the size.
 * FileService.assertAttachable checks both when the object's URL is first
 * attached to a record.
 */
export class S3StorageDriver implements StorageDriver {
  readonly name = 's3';
  private readonly client: Client;

  constructor(private readonly s3: S3Config) {
    this.client = new Client({
      endPoint: s3.endPoint,
      ...(s3.port === undefined ? {} : { port: s3.port }),
      useSSL: s3.useSSL,
      accessKey: s3.accessKey,
      secretKey: s3.secretKey,
      region: s3.region,
      pathStyle: true,
    });
  }

  async presignUpload(request: PresignRequest): Promise<PresignedUpload> {
    const { issuedAt } = request;
    const url = await this.client.presignedUrl(
      'PUT',
      this.s3.bucket,
      request.key,
      request.expiresInSeconds,
      {},
      issuedAt,
    );
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': request.contentType },
      expiresAt: new Date(issuedAt.getTime() + request.expiresInSeconds * 1000),
    };
  }

  publicUrl(key: string): string {
    return `${this.s3.publicUrl}/${encodeKey(key)}`;
  }

  keyFromUrl(url: string): string | undefined {
    return keyUnderBase(url, `${this.s3.publicUrl}/`);
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const info = await this.client.statObject(this.s3.bucket, key);
      const raw = info.metaData['content-type'] as string | undefined;
      return {
        size: info.size,
        contentType: raw?.split(';')[0].trim().toLowerCase() || undefined,
      };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'NotFound' || code === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.s3.bucket, key);
  }
}
