import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a local upload URL grants: one PUT of one type, up to a size, until a time. */
export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  /** Unix seconds. */
  expires: number;
}

/** Names of the query parameters of a local upload URL. */
export const UPLOAD_QUERY = {
  contentType: 'content_type',
  maxBytes: 'max_bytes',
  expires: 'expires',
  signature: 'signature',
} as const;

const SIGNATURE = /^[0-9a-f]{64}$/;
const WHOLE_NUMBER = /^\d{1,15}$/;

/**
 * HMAC-SHA256 signatures of local upload URLs. The key is derived from
 * JWT_SECRET with a label, so a signature can never pass as a token or the
 * other way round, and no second secret has to be configured.
 */
export class UploadSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('file-upload-signing').digest();
  }

  sign(grant: UploadGrant): string {
    // Every field is checked against its own grammar before it gets here
    // (keys and types hold no newline), so the fields cannot be shifted.
    const canonical = [
      'PUT',
      grant.key,
      grant.contentType,
      String(grant.maxBytes),
      String(grant.expires),
    ].join('\n');
    return createHmac('sha256', this.key).update(canonical).digest('hex');
  }

  verify(grant: UploadGrant, signature: string): boolean {
    if (!SIGNATURE.test(signature)) return false;
    return timingSafeEqual(Buffer.from(this.sign(grant), 'hex'), Buffer.from(signature, 'hex'));
  }

  /** The query string of an upload URL for this grant. */
  queryString(grant: UploadGrant): string {
    return new URLSearchParams({
      [UPLOAD_QUERY.contentType]: grant.contentType,
      [UPLOAD_QUERY.maxBytes]: String(grant.maxBytes),
      [UPLOAD_QUERY.expires]: String(grant.expires),
      [UPLOAD_QUERY.signature]: this.sign(grant),
    }).toString();
  }
}

/**
 * The grant and signature a query claims, or undefined when a parameter is
 * missing, repeated or malformed (the caller refuses those like a bad signature).
 */
export function readUploadQuery(
  key: string,
  query: Record<string, unknown>,
): { grant: UploadGrant; signature: string } | undefined {
  const value = (name: string) => {
    const raw = query[name];
    return typeof raw === 'string' ? raw : undefined;
  };
  const contentType = value(UPLOAD_QUERY.contentType);
  const maxBytes = value(UPLOAD_QUERY.maxBytes);
  const expires = value(UPLOAD_QUERY.expires);
  const signature = value(UPLOAD_QUERY.signature);
  if (!contentType || !/^[a-z]+\/[a-z0-9.+-]+$/.test(contentType)) return undefined;
  if (!maxBytes || !WHOLE_NUMBER.test(maxBytes)) return undefined;
  if (!expires || !WHOLE_NUMBER.test(expires)) return undefined;
  if (!signature) return undefined;
  return {
    grant: { key, contentType, maxBytes: Number(maxBytes), expires: Number(expires) },
    signature,
  };
}
