import { hash, timingSafeEqual } from 'node:crypto';

/** One-shot sha256: no Hash object per request, as createHash makes. */
const digest = (value: string) => hash('sha256', value, 'buffer');

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
