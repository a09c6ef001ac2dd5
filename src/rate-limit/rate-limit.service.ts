import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { PostgresRateLimitStore } from './rate-limit-counter.repository';
import { MemoryRateLimitStore, RateLimitStore } from './rate-limit.store';

/** One hit counted by RateLimitService.take. */
export interface RateLimitHit {
  bucket: string;
  subject: string;
  windowStartMs: number;
}

const BUCKET = /^[a-z0-9][a-z0-9:_.-]{0,63}$/;
const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed-window rate limits (login and code mails per IP and email, order
 * placement per IP), 429 beyond. Counters live in PostgreSQL when the service
 * runs on a server database, so every replica counts against the same limit;
 * in memory on the embedded database (one process only).
 *
 * Call it before opening a transaction: the PostgreSQL store uses its own
 * connection from the pool, and with the embedded pool of one a query outside
 * the open transaction would wait for ever.
 */
// R67: rate limits.
@Injectable()
export class RateLimitService {
  private readonly logger = new Logger('RateLimit');
  private readonly store: RateLimitStore;
  private nextSweepMs = 0;

  constructor(
    @InjectConfig() config: AppConfig,
    dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.store = config.databaseUrl
      ? new PostgresRateLimitStore(dataSource)
      : new MemoryRateLimitStore();
  }

  /**
   * Counts one hit of `key` in `bucket` and refuses it with 429 RATE_LIMITED
   * (Retry-After = seconds until the window ends) once more than `limit` hits
   * fell in the current window of `windowSeconds`. Keys are stored hashed, so
   * an email used as a key is not kept in clear.
   */
  async consume(bucket: string, key: string, limit: number, windowSeconds: number): Promise<void> {
    await this.take(bucket, key, limit, windowSeconds);
  }

  /**
   * As consume, and answers the hit it counted, so that a caller that finds
   * afterwards that the request was not of the kind the limit counts gives
   * it back (giveBack). Counting first and giving back later keeps the limit
   * exact under simultaneous requests: a burst can never pass more than
   * `limit` of the counted kind.
   */
  async take(
    bucket: string,
    key: string,
    limit: number,
    windowSeconds: number,
  ): Promise<RateLimitHit> {
    if (!BUCKET.test(bucket)) throw new Error(`Not a rate-limit bucket name: ${bucket}`);
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Bad rate limit ${limit}`);
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1) {
      throw new Error(`Bad rate-limit window ${windowSeconds}`);
    }
    const nowMs = this.clock.nowMs();
    await this.sweepWhenDue(nowMs);
    const subject = createHash('sha256').update(key).digest('hex');
    const windowMs = windowSeconds * 1000;
    const { hits, resetAtMs } = await this.store.hit(bucket, subject, windowMs, nowMs);
    if (hits > limit) throw ApiError.rateLimited((resetAtMs - nowMs) / 1000);
    return { bucket, subject, windowStartMs: resetAtMs - windowMs };
  }

  /** Takes back a hit that take counted (in its own window, whenever it is given back). */
  async giveBack(hit: RateLimitHit): Promise<void> {
    await this.store.unhit(hit.bucket, hit.subject, hit.windowStartMs);
  }

  private async sweepWhenDue(nowMs: number): Promise<void> {
    if (nowMs < this.nextSweepMs) return;
    this.nextSweepMs = nowMs + SWEEP_EVERY_MS;
    try {
      await this.store.sweep(nowMs);
    } catch (error) {
      // Old windows only cost space; a failed sweep must not refuse the request.
      this.logger.warn(`Sweeping old rate-limit windows failed: ${String(error)}`);
    }
  }
}
