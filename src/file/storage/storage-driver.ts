import { UploadType } from '../upload-rules';

export const STORAGE_DRIVER = Symbol('STORAGE_DRIVER');

export interface PresignRequest {
  /** A key built by buildObjectKey. */
  key: string;
  contentType: UploadType;
  /** The declared size; the local driver refuses a larger body. */
  maxBytes: number;
  expiresInSeconds: number;
  /** When the URL is issued (the service Clock's now). */
  issuedAt: Date;
}

export interface PresignedUpload {
  url: string;
  method: 'PUT';
  /** Headers the client must send with the PUT. */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface StoredObject {
  size: number;
  /** As stored, lower case, without parameters; undefined when the store has none. */
  contentType: string | undefined;
}

/**
 * Where uploads go. Two drivers, chosen by STORAGE_DRIVER: the service's own
 * disk (`local`) and any S3-compatible store (`s3`). Keys are always checked
 * with isObjectKey before they reach a driver.
 */
export interface StorageDriver {
  readonly name: 'local' | 's3';
  /** A URL the client PUTs the file to, without credentials of its own. */
  presignUpload(request: PresignRequest): Promise<PresignedUpload>;
  /** The public URL of a stored object (what goes into entity_featured_url). */
  publicUrl(key: string): string;
  /**
   * The key a URL names when it points into this storage; undefined for any
   * other URL ('' when it points into the storage but names no key).
   */
  keyFromUrl(url: string): string | undefined;
  /** The object, or undefined when nothing is stored under the key. */
  stat(key: string): Promise<StoredObject | undefined>;
  /** Deletes the object; a missing object is not an error. */
  remove(key: string): Promise<void>;
}
