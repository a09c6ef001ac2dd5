import { randomBytes } from 'node:crypto';

/** No I, L, O, 0 or 1: a reference is read aloud and typed by people. */
export const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;
/** Bytes at or above this would bias the modulo; they are skipped. */
const LIMIT = 256 - (256 % REFERENCE_ALPHABET.length);

/**
 * A short human-readable order reference such as `K7MQ-2XPA`: 8 random
 * characters of a 31-letter alphabet (about 8.5 × 10^11 values). Uniqueness
 * is the database's job (a unique index; a clash draws again).
 */
export function generateOrderReference(random: (size: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < LENGTH) {
    for (const byte of random(LENGTH * 2)) {
      if (byte >= LIMIT) continue;
      out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
      if (out.length === LENGTH) break;
    }
  }
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}
