import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const SECRET_BYTES = 32;
/** Ties the derived key to this one use: the same setting may key other things. */
const HKDF_INFO = 'webhook-endpoint-secret/aes-256-gcm';
const HKDF_SALT = 'menu-order-service';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * Encrypts endpoint secrets at rest with AES-256-GCM under a key derived with
 * HKDF-SHA256 from the configured key material. The GCM tag makes a stored
 * value that was altered, or read under another key, fail to open instead of
 * signing with garbage. The endpoint's uuid is bound in as associated data,
 * so a ciphertext copied onto another endpoint does not open either.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, HKDF_SALT, HKDF_INFO, 32));
  }

  seal(secret: string, endpointUuid: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(endpointUuid));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext].map((part) => this.text(part)).join('.');
  }

  open(sealed: string, endpointUuid: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
      throw new Error('Not a sealed webhook secret');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(endpointUuid));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(ciphertext, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }

  private text(part: string | Buffer): string {
    return typeof part === 'string' ? part : part.toString('base64url');
  }
}
