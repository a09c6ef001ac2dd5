import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { IncomingMessage } from 'node:http';
import { link, mkdir, open, readdir, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/config';
import { ApiError } from '../../http/api-error';
import { encodeKey, isObjectKey, keyUnderBase, uploadTypeOfKey } from '../upload-rules';
import { PresignedUpload, PresignRequest, StorageDriver, StoredObject } from './storage-driver';
import { readUploadQuery, UploadSigner } from './upload-signature';

/** Path prefixes of the local driver's own routes (the JSON parser skips the upload one). */
export const LOCAL_FILES_PATH = 'files';
export const LOCAL_UPLOAD_PATH = 'files/upload';

/** Incoming files older than this are leftovers of a crash and are removed at start. */
const STALE_INCOMING_MS = 24 * 3600 * 1000;

class TooLarge extends Error {}
class Interrupted extends Error {}

/** What an accepted PUT stored. */
export interface ReceivedUpload {
  key: string;
  size: number;
  contentType: string;
}

/** A stored file ready to be sent. */
export interface LocalFile {
  path: string;
  contentType: string;
  size: number;
}

/**
 * Files under DATA_DIR/files, uploaded through the service's own signed PUT
 * and served by it. The PUT enforces what a presigned S3 URL cannot: the
 * signed type and the size.
 */
export class LocalStorageDriver implements StorageDriver {
  readonly name = 'local';
  private readonly logger = new Logger('LocalStorage');
  private readonly root: string;
  /** Bodies are written here first and linked into place when complete. */
  private readonly incoming: string;
  private readonly signer: UploadSigner;
  private readonly baseUrl: string;
  private readonly maxUploadBytes: number;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.root = resolve(config.dataDir, 'files');
    this.incoming = resolve(config.dataDir, 'files-incoming');
    this.signer = new UploadSigner(config.jwtSecret);
    this.baseUrl = config.publicBaseUrl;
    this.maxUploadBytes = config.maxUploadBytes;
  }

  async presignUpload(request: PresignRequest): Promise<PresignedUpload> {
    const expires = Math.floor(request.issuedAt.getTime() / 1000) + request.expiresInSeconds;
    const query = this.signer.queryString({
      key: request.key,
      contentType: request.contentType,
      maxBytes: request.maxBytes,
      expires,
    });
    return {
      url: `${this.baseUrl}/${LOCAL_UPLOAD_PATH}/${encodeKey(request.key)}?${query}`,
      method: 'PUT',
      headers: { 'Content-Type': request.contentType },
      expiresAt: new Date(expires * 1000),
    };
  }

  publicUrl(key: string): string {
    return `${this.baseUrl}/${LOCAL_FILES_PATH}/${encodeKey(key)}`;
  }

  keyFromUrl(url: string): string | undefined {
    return keyUnderBase(url, `${this.baseUrl}/${LOCAL_FILES_PATH}/`);
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const file = await this.find(key);
    return file && { size: file.size, contentType: file.contentType };
  }

  async remove(key: string): Promise<void> {
    const path = this.pathOf(key);
    if (path) await rm(path, { force: true });
  }

  /** The stored file of a key, or undefined (bad key, never uploaded, not a file). */
  async find(key: string): Promise<LocalFile | undefined> {
    const path = this.pathOf(key);
    const contentType = uploadTypeOfKey(key);
    if (!path || !contentType) return undefined;
    try {
      const info = await stat(path);
      return info.isFile() ? { path, contentType, size: info.size } : undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /**
   * The signed PUT: signature, expiry, Content-Type and size are checked in
   * that order; the body is streamed to a temporary file, cut off at the
   * limit, flushed to disk and linked into place only if no file holds the
   * key yet. On any refusal nothing is left behind.
   */
  async receive(
    key: string,
    query: Record<string, unknown>,
    headers: { contentType?: string; contentLength?: string },
    body: IncomingMessage,
  ): Promise<ReceivedUpload> {
    const claimed = isObjectKey(key) ? readUploadQuery(key, query) : undefined;
    if (!claimed || !this.signer.verify(claimed.grant, claimed.signature)) {
      throw ApiError.forbidden('The upload URL is not valid.');
    }
    const { grant } = claimed;
    if (grant.expires * 1000 <= this.clock.nowMs()) {
      throw ApiError.forbidden('The upload URL has expired; ask for a new one.');
    }
    const sentType = headers.contentType?.trim().toLowerCase();
    if (sentType !== grant.contentType) {
      throw ApiError.badRequest(
        `Send the file with Content-Type: ${grant.contentType}, as the upload URL was issued for.`,
      );
    }
    const limit = Math.min(grant.maxBytes, this.maxUploadBytes);
    const declared =
      headers.contentLength === undefined ? undefined : Number(headers.contentLength);
    if (declared !== undefined && declared > limit) throw tooLarge(limit);
    if (declared === 0) throw ApiError.badRequest('The body is empty.');
    const path = this.pathOf(key) as string;
    if (await this.find(key)) throw alreadyUploaded();

    await mkdir(this.incoming, { recursive: true });
    const temporary = join(this.incoming, randomBytes(16).toString('hex'));
    try {
      const size = await this.writeLimited(body, temporary, limit);
      if (size === 0) throw ApiError.badRequest('The body is empty.');
      const handle = await open(temporary, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await mkdir(dirname(path), { recursive: true });
      try {
        // link() fails when the target exists: two PUTs racing for one key
        // cannot both win, and the loser overwrites nothing.
        await link(temporary, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyUploaded();
        throw error;
      }
      return { key, size, contentType: grant.contentType };
    } finally {
      await unlink(temporary).catch(() => undefined);
    }
  }

  /** Removes temporary files a crash left behind. */
  async removeStaleIncoming(): Promise<void> {
    const now = Date.now();
    let names: string[];
    try {
      names = await readdir(this.incoming);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.incoming, name);
      try {
        if (now - (await stat(path)).mtimeMs > STALE_INCOMING_MS) await rm(path, { force: true });
      } catch (error) {
        this.logger.warn(`Could not remove ${path}: ${String(error)}`);
      }
    }
  }

  private async writeLimited(body: IncomingMessage, path: string, limit: number): Promise<number> {
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > limit ? new TooLarge() : null, chunk);
      },
    });
    // The request is piped rather than handed to pipeline(), which would
    // destroy it (and its socket) on a refusal before the answer is sent.
    body.pipe(counter);
    const interrupted = () => {
      if (!body.complete) counter.destroy(new Interrupted());
    };
    body.once('close', interrupted);
    const file = createWriteStream(path, { flags: 'wx' });
    try {
      await pipeline(counter, file);
      return size;
    } catch (error) {
      // A refusal can come while the file is still being opened: wait until it is
      // closed, or it would be created after the caller has removed it.
      await new Promise<void>((done) => (file.closed ? done() : file.once('close', () => done())));
      body.unpipe(counter);
      // Read and drop the rest, so the answer reaches a client still sending.
      body.resume();
      if (error instanceof TooLarge) throw tooLarge(limit);
      if (error instanceof Interrupted) throw ApiError.badRequest('The upload was interrupted.');
      throw error;
    } finally {
      body.off('close', interrupted);
    }
  }

  /** The absolute path of a key, or undefined when the key is not one of ours. */
  private pathOf(key: string): string | undefined {
    if (!isObjectKey(key)) return undefined;
    const path = resolve(this.root, ...key.split('/'));
    // isObjectKey already rules out `..`; this is the second lock on the door.
    return path.startsWith(this.root + sep) ? path : undefined;
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The file is larger than the ${limit} bytes this upload URL allows.`,
  );
}

function alreadyUploaded(): ApiError {
  return ApiError.conflict('A file was already uploaded to this URL; ask for a new one.');
}
