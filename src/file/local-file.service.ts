import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Request, Response } from 'express';
import { ApiError } from '../http/api-error';
import { UploadedFileDto } from './dto/uploaded-file.dto';
import { LocalStorageDriver } from './storage/local-storage.driver';
import { STORAGE_DRIVER, StorageDriver } from './storage/storage-driver';

/** Keys are never reused, so their content never changes and a year of caching is safe. */
const CACHE_SECONDS = 365 * 24 * 3600;

/** A wildcard route parameter (Express 5 gives the decoded segments). */
export type PathParam = string | string[] | undefined;

function keyOf(path: PathParam): string {
  return Array.isArray(path) ? path.join('/') : (path ?? '');
}

/**
 * The local driver's own routes: the signed PUT and the public read. With
 * the s3 driver both answer 404, as if they did not exist.
 */
@Injectable()
export class LocalFileService implements OnModuleInit {
  constructor(@Inject(STORAGE_DRIVER) private readonly storage: StorageDriver) {}

  async onModuleInit(): Promise<void> {
    if (this.storage instanceof LocalStorageDriver) await this.storage.removeStaleIncoming();
  }

  async receiveUpload(path: PathParam, request: Request): Promise<UploadedFileDto> {
    const local = this.local();
    const stored = await local.receive(
      keyOf(path),
      request.query as Record<string, unknown>,
      {
        contentType: request.header('content-type'),
        contentLength: request.header('content-length'),
      },
      request,
    );
    return {
      object_key: stored.key,
      file_url: local.publicUrl(stored.key),
      size: stored.size,
      content_type: stored.contentType,
    };
  }

  /** Streams the file with its stored type; 404 for anything not uploaded. */
  async sendFile(path: PathParam, response: Response): Promise<void> {
    const file = await this.local().find(keyOf(path));
    if (!file) throw notUploaded();
    await new Promise<void>((resolve, reject) => {
      response.sendFile(
        file.path,
        {
          headers: { 'Content-Type': file.contentType, 'X-Content-Type-Options': 'nosniff' },
          maxAge: CACHE_SECONDS * 1000,
          immutable: true,
          dotfiles: 'allow',
        },
        (error?: Error & { status?: number; code?: string }) => {
          if (!error || response.headersSent) return resolve();
          reject(error.status === 404 || error.code === 'ENOENT' ? notUploaded() : error);
        },
      );
    });
  }

  private local(): LocalStorageDriver {
    if (!(this.storage instanceof LocalStorageDriver)) {
      throw ApiError.notFound('No route matches this method and path.');
    }
    return this.storage;
  }
}

function notUploaded(): ApiError {
  return ApiError.notFound('No file is stored at this address.');
}
