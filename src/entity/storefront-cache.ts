import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';

/** Enough for every storefront a process serves at once; the oldest entry goes first. */
const MAX_ENTRIES = 5000;

interface Entry<T> {
  value: T;
  expiresAt: number;
  /** Uuids of the records the value was built from. */
  refs: string[];
}

/**
 * D17's short cache of storefront answers, in this process
 * (STOREFRONT_CACHE_TTL_MS; 0 turns it off). Every write to an entity drops
 * the entries built from it or from its parent at once, and a read that was
 * running while a write happened does not store what it read, so a write is
 * never hidden by the cache in this process. Other replicas keep their own
 * entries until the TTL runs out.
 */
@Injectable()
export class StorefrontCache<T = unknown> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;
  private readonly ttlMs: number;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.ttlMs = config.storefrontCacheTtlMs;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.nowMs()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before reading the database; `set` stores only if no write happened since. */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: T, refs: string[], mark: number): void {
    if (this.ttlMs <= 0 || mark !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.clock.nowMs() + this.ttlMs, refs });
  }

  /** Call after a write to these records has committed. */
  invalidate(uuids: Array<string | null | undefined>): void {
    this.generation++;
    const touched = new Set(uuids.filter((uuid): uuid is string => !!uuid));
    if (touched.size === 0) return;
    for (const [key, entry] of this.entries) {
      if (entry.refs.some((ref) => touched.has(ref))) this.entries.delete(key);
    }
  }
}
