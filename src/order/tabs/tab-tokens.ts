import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The party's capability for one tab, like the order token: an HMAC-SHA256
 * of the tab's uuid under a key derived from the service secret (a label of
 * its own, so an order token never opens a tab). Never stored; 256 bits.
 */
export class TabTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('tab-token').digest();
  }

  tokenFor(tabUuid: string): string {
    return createHmac('sha256', this.key).update(tabUuid.toLowerCase()).digest('base64url');
  }

  /** Constant-time check of a token sent by a client; false for anything malformed. */
  matches(tabUuid: string, token: unknown): boolean {
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) return false;
    const expected = Buffer.from(this.tokenFor(tabUuid));
    const sent = Buffer.from(token);
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  }
}
