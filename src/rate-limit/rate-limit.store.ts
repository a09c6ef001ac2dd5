import { DataSource } from 'typeorm';

/** The outcome of one counted hit in a fixed window. */
export interface WindowCount {
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the current window ends (epoch ms). */
  resetAtMs: number;
}

/** Where the counters live: one process (memory) or every replica (PostgreSQL). */
export interface RateLimitStore {
  /** Counts one hit of `subject` in `bucket` for the fixed window holding `nowMs`. */
  hit(bucket: string, subject: string, windowMs: number, nowMs: number): Promise<WindowCount>;
  /** Takes back one hit of `subject` in `bucket` from the window that started at `windowStartMs`. */
  unhit(bucket: string, subject: string, windowStartMs: number): Promise<void>;
  /** Forgets windows that ended before `nowMs`. */
  sweep(nowMs: number): Promise<void>;
}

/** The fixed window holding `nowMs`: aligned to the epoch so every replica agrees. */
export function windowStartOf(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

/** For the embedded database, which serves exactly one process. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { startMs: number; endMs: number; hits: number }>();

  async hit(bucket: string, subject: string, windowMs: number, nowMs: number) {
    const key = `${bucket}\u0000${subject}`;
    const startMs = windowStartOf(nowMs, windowMs);
    const current = this.windows.get(key);
    if (current && current.startMs === startMs && current.endMs === startMs + windowMs) {
      current.hits += 1;
      return { hits: current.hits, resetAtMs: current.endMs };
    }
    const fresh = { startMs, endMs: startMs + windowMs, hits: 1 };
    this.windows.set(key, fresh);
    return { hits: 1, resetAtMs: fresh.endMs };
  }

  async unhit(bucket: string, subject: string, windowStartMs: number): Promise<void> {
    const current = this.windows.get(`${bucket}\u0000${subject}`);
    if (current && current.startMs === windowStartMs && current.hits > 0) current.hits -= 1;
  }

  async sweep(nowMs: number): Promise<void> {
    for (const [key, window] of this.windows) {
      if (window.endMs <= nowMs) this.windows.delete(key);
    }
  }

  /** Windows held, for tests of the sweep. */
  get size(): number {
    return this.windows.size;
  }
}

/**
 * Counters shared by every replica: one atomic upsert per hit, so concurrent
 * hits on several processes are all counted.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly dataSource: DataSource) {}

  async hit(bucket: string, subject: string, windowMs: number, nowMs: number) {
    const startMs = windowStartOf(nowMs, windowMs);
    const endMs = startMs + windowMs;
    const rows: Array<{ hits: number }> = await this.dataSource.query(
      `INSERT INTO rate_limit_counters (bucket, subject, window_start, expires_at, hits)
       VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (bucket, subject, window_start)
       DO UPDATE SET hits = rate_limit_counters.hits + 1
       RETURNING hits`,
      [bucket, subject, new Date(startMs), new Date(endMs)],
    );
    return { hits: Number(rows[0].hits), resetAtMs: endMs };
  }

  async unhit(bucket: string, subject: string, windowStartMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE rate_limit_counters SET hits = hits - 1
        WHERE bucket = $1 AND subject = $2 AND window_start = $3 AND hits > 0`,
      [bucket, subject, new Date(windowStartMs)],
    );
  }

  async sweep(nowMs: number): Promise<void> {
    await this.dataSource.query('DELETE FROM rate_limit_counters WHERE expires_at <= $1', [
      new Date(nowMs),
    ]);
  }
}
