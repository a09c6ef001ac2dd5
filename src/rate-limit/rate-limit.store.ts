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
