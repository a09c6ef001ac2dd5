import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Keys are compared as sha256 digests in constant time, every key every time. */
export class ApiKeys {
  private readonly digests: Buffer[];

  constructor(keys: string[]) {
    this.digests = keys.map(digest);
  }

  matches(candidate: unknown): boolean {
    if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 512)
      return false;
    const offered = digest(candidate);
    let found = false;
    for (const known of this.digests) found = timingSafeEqual(known, offered) || found;
    return found;
  }
}
