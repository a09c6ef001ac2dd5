import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError, ErrorDetail } from '../http/api-error';
import { CreateUploadUrlsDto } from './dto/create-upload-urls.dto';
import { toUploadUrlResponse, UploadUrlDto } from './dto/upload-url.dto';
import { STORAGE_DRIVER, StorageDriver } from './storage/storage-driver';
import {
  buildObjectKey,
  clampExpiresIn,
  isKeyOwnedBy,
  isObjectKey,
  resolveDirectory,
  sanitizeFileName,
  uploadTypeOfKey,
} from './upload-rules';

const FEATURED_URL_FIELD = 'entity_featured_url';

/**
 * Upload URLs, with their key and type rules, and the check that a stored object may be attached
 * to a record. The only part of the file module other modules use.
 */
// R27: upload rules.
@Injectable()
export class FileService {
  private readonly logger = new Logger('Files');

  constructor(
    @Inject(STORAGE_DRIVER) private readonly storage: StorageDriver,
    @InjectConfig() private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** One upload URL per requested file, in order; nothing is stored yet. */
  async createUploadUrls(user: AuthUser, dto: CreateUploadUrlsDto): Promise<UploadUrlDto[]> {
    // The key is built from the token's user only; a user_uuid in the
    // body was already dropped by the validation whitelist.
    const directories = dto.files.map((file) => resolveDirectory(file.directory, user.uuid));
    if (directories.some((directory) => !directory.ok)) {
      throw ApiError.forbidden('A directory may only name your own user uuid.');
    }
    const tooLarge: ErrorDetail[] = dto.files.flatMap((file, index) =>
      file.file_size > this.config.maxUploadBytes
        ? [
            {
              field: `files.${index}.file_size`,
              message: `file_size must not exceed ${this.config.maxUploadBytes} bytes`,
            },
          ]
        : [],
    );
    if (tooLarge.length) throw ApiError.validation(tooLarge);

    const expiresInSeconds = clampExpiresIn(dto.expires_in);
    const issuedAt = this.clock.now();
    return Promise.all(
      dto.files.map(async (file, index) => {
        const directory = directories[index] as { ok: true; segments: string[] };
        const key = buildObjectKey(
          user.uuid,
          directory.segments,
          sanitizeFileName(file.file_name, file.file_type),
        );
        const upload = await this.storage.presignUpload({
          key,
          contentType: file.file_type,
          maxBytes: file.file_size,
          expiresInSeconds,
          issuedAt,
        });
        return toUploadUrlResponse(key, upload, this.storage.publicUrl(key));
      }),
    );
  }

  /**
   * For the entity module, when a record's `entity_featured_url` is first
   * saved or changed. A URL outside our storage is left alone. A URL into it
   * must name an uploaded object under the owner's uuid, of the type its
   * key was issued for and within MAX_UPLOAD_BYTES; otherwise 422
   * UNPROCESSABLE. A presigned S3 PUT cannot bind type or size, so an object
   * breaking those rules is removed as well (the local PUT enforces both).
   * Call it before opening a transaction: it may reach the object store.
   */
  async assertAttachable(url: string | null | undefined, ownerUuid: string): Promise<void> {
    if (!url) return;
    const key = this.storage.keyFromUrl(url);
    if (key === undefined) return;
    if (!isObjectKey(key)) {
      throw refuse('entity_featured_url points into file storage but not at an uploaded file.');
    }
    if (!isKeyOwnedBy(key, ownerUuid)) {
      throw refuse('entity_featured_url names a file uploaded by another user.');
    }
    const stored = await this.storage.stat(key);
    if (!stored) {
      throw refuse('No file has been uploaded to entity_featured_url yet; upload it first.');
    }
    const expectedType = uploadTypeOfKey(key);
    let problem: string | undefined;
    if (stored.contentType !== expectedType) {
      problem = `The uploaded file has type ${stored.contentType ?? 'unknown'}; it must be ${expectedType}.`;
    } else if (stored.size < 1 || stored.size > this.config.maxUploadBytes) {
      problem = `The uploaded file has ${stored.size} bytes; it must have 1 to ${this.config.maxUploadBytes}.`;
    }
    if (problem) {
      await this.storage.remove(key).catch((error: unknown) => {
        this.logger.error({ err: error, key }, 'Could not remove a refused upload');
      });
      throw refuse(`${problem} The file was removed; upload it again.`);
    }
  }
}

function refuse(message: string): ApiError {
  return ApiError.unprocessable(message, [{ field: FEATURED_URL_FIELD, message }]);
}
