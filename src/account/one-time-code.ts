import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { TokenPurpose } from './user-token.entity';

/** Codes live 30 minutes and die after five tries. */
export const CODE_LIFETIME_MS = 30 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;

/**
 * A random eight-digit code (at least six digits are needed). It never starts with
 * 0, so a client that sends it as a JSON number still sends the same digits.
 */
export function generateCode(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

/**
 * Keys the code hashes, so a copy of the database alone is not enough to
 * try the 10^8 codes offline. Derived from the JWT secret, which the service
 * already keeps secret; a changed secret only voids codes in flight.
 */
export function codeHashKey(secret: string): Buffer {
  return createHash('sha256').update(`user-token-hash:${secret}`).digest();
}

/** HMAC-SHA256 of the code bound to its user and purpose, as stored in user_tokens.token_hash. */
export function hashCode(
  key: Buffer,
  userUuid: string,
  purpose: TokenPurpose,
  code: string,
): string {
  return createHmac('sha256', key).update(`${userUuid}:${purpose}:${code}`).digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
