import { createHmac, timingSafeEqual } from 'node:crypto';

// R37: the guest's view.
/**
 * The guest's capability for one order: an HMAC-SHA256 of the order uuid
 * under a key derived from the service secret. It is never stored — the same
 * order always yields the same token, so a replayed placement answers the
 * same one — and it carries 256 bits, far beyond guessing.
 */
export class OrderTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('order-token').digest();
  }

  tokenFor(orderUuid: string): string {
    return createHmac('sha256', this.key).update(orderUuid.toLowerCase()).digest('base64url');
  }

  /** Constant-time check of a token sent by a client; false for anything malformed. */
  matches(orderUuid: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
    const expected = Buffer.from(this.tokenFor(orderUuid));
    const sent = Buffer.from(token);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }
}
