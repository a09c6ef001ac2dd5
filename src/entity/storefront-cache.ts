import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { Transaction } from '../database/event-bus';
import { PgNotifications } from '../database/pg-notifications';
import { isUuid } from '../common/uuid';

/** Tells every process which records changed, so their caches drop them too. */
const INVALIDATION_CHANNEL = 'storefront_invalidated';

/** Enough for every storefront a process serves at once; the oldest entry goes first. */
const MAX_ENTRIES = 5000;
/**
 * The bytes all entries may hold together: thousands of storefronts each
 * read now and then would otherwise keep every answer until it is looked up
 * again (the stored documents answer them in one read anyway).
 */
const MAX_BYTES = 32 * 1024 * 1024;

interface Entry<T> {
  value: T;
  /** From here on a read should refresh the entry in the background (half its TTL). */
  refreshAt: number;
  expiresAt: number;
  /** Uuids of the records the value was built from. */
  refs: string[];
  bytes: number;
}

/**
 * A short cache of storefront answers, in this process
 * (STOREFRONT_CACHE_TTL_MS; 0 turns it off). Every write to an entity drops
 * the entries built from it or from its parent at once, and a read that was
 * running while a write happened does not store what it read, so a write is
 * never hidden by the cache in this process. On a PostgreSQL server the
 * write is also NOTIFYed, and every other process drops the same entries when
 * it hears it (within milliseconds; a process whose listening connection is
 * down keeps its entries until the TTL runs out).
 */
@Injectable()
export class StorefrontCache<T = unknown> implements OnModuleInit {
  private readonly logger = new Logger('StorefrontCache');
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;
  private bytes = 0;
  private readonly ttlMs: number;
  /** Sent after the uuids of each invalidation (not a uuid, so other readers skip it). */
  private readonly origin = `from:${randomUUID()}`;

  constructor(
    @InjectConfig() config: AppConfig,
    private readonly clock: Clock,
    private readonly notifications: PgNotifications,
  ) {
    this.ttlMs = config.storefrontCacheTtlMs;
  }

  async onModuleInit(): Promise<void> {
    if (this.ttlMs <= 0) return;
    await this.notifications.subscribe(INVALIDATION_CHANNEL, (payload) => {
      const parts = payload.split(',');
      // This process dropped its own entries when it made the write; hearing
      // it again later would only turn away the reads that began since.
      if (parts.includes(this.origin)) return;
      this.drop(parts.filter((uuid) => isUuid(uuid)));
    });
  }

  /** False with STOREFRONT_CACHE_TTL_MS=0: nothing is kept, every read goes to the database. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /**
   * The live entry of `key`, if any. `refreshDue` says it has lived half its
   * TTL: a caller that rebuilds it now, while still answering this one,
   * keeps a busy key from ever expiring under its readers. An entry is never
   * answered after its TTL.
   */
  lookup(key: string): { value: T; refreshDue: boolean } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.clock.nowMs();
    if (entry.expiresAt <= now) {
      this.remove(key);
      return undefined;
    }
    return { value: entry.value, refreshDue: entry.refreshAt <= now };
  }

  /** Taken before reading the database; `set` stores only if no write happened since. */
  mark(): number {
    return this.generation;
  }

  /**
   * `until` (epoch ms), when given, ends the entry earlier than the TTL
   * would; `bytes` is what the value holds, counted against the budget.
   */
  set(key: string, value: T, refs: string[], mark: number, until?: number | null, bytes = 0): void {
    if (this.ttlMs <= 0 || mark !== this.generation) return;
    this.remove(key);
    const now = this.clock.nowMs();
    const expiresAt = Math.min(now + this.ttlMs, until ?? Infinity);
    if (expiresAt <= now || bytes > MAX_BYTES) return;
    // The oldest first: expired ones, and then as many as the limits ask.
    for (const [oldKey, oldEntry] of this.entries) {
      const full = this.entries.size >= MAX_ENTRIES || this.bytes + bytes > MAX_BYTES;
      if (!full && oldEntry.expiresAt > now) break;
      this.remove(oldKey);
    }
    this.entries.set(key, {
      value,
      refreshAt: now + (expiresAt - now) / 2,
      expiresAt,
      refs,
      bytes,
    });
    this.bytes += bytes;
  }

  /** Counts `bytes` for the entry of `key` if it holds `value` (which has grown since it was set). */
  recount(key: string, value: T, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry || entry.value !== value) return;
    this.bytes += bytes - entry.bytes;
    entry.bytes = bytes;
    for (const [oldKey] of this.entries) {
      if (this.bytes <= MAX_BYTES) break;
      this.remove(oldKey);
    }
  }

  /** Call after a write to these records has committed: drops them here and in every other process. */
  invalidate(uuids: Array<string | null | undefined>): void {
    const touched = uuids.filter((uuid): uuid is string => !!uuid);
    this.drop(touched);
    if (this.ttlMs <= 0 || touched.length === 0) return;
    const payload = [...touched, this.origin].join(',');
    this.notifications.publish(INVALIDATION_CHANNEL, payload).catch((error: unknown) => {
      this.logger.warn(`Telling other processes about a write failed: ${String(error)}`);
    });
  }

  /**
   * Call in the transaction of a change to these records: every other
   * process hears of it at the commit (its NOTIFY is held with the
   * transaction's writes, so the change sends no statement of its own for
   * it), and this one drops them once it has committed.
   */
  async invalidateAtCommit(
    tx: Transaction,
    uuids: Array<string | null | undefined>,
  ): Promise<void> {
    const touched = uuids.filter((uuid): uuid is string => !!uuid);
    if (touched.length === 0) return;
    if (this.ttlMs > 0) {
      const payload = [...touched, this.origin].join(',');
      await this.notifications.publish(INVALIDATION_CHANNEL, payload, tx.manager);
    }
    tx.afterCommit(() => this.drop(touched));
  }

  private drop(uuids: string[]): void {
    this.generation++;
    if (uuids.length === 0) return;
    const touched = new Set(uuids);
    for (const [key, entry] of this.entries) {
      if (entry.refs.some((ref) => touched.has(ref))) this.remove(key);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
