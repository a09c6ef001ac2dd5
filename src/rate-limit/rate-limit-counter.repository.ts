import { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { execute, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import { RateLimitCounterEntity } from './rate-limit-counter.entity';
import { RateLimitStore, windowStartOf } from './rate-limit.store';

const db = queryBuilder<{ rateLimitCounters: Table<RateLimitCounterEntity, 'hits'> }>();

/** `hits` hits of a window, counted in one upsert; answers the window's count after them. */
const countHits = preparedQuery(
  (hit: { bucket: string; subject: string; windowStart: Date; expiresAt: Date; hits: number }) =>
    db
      .insertInto('rateLimitCounters')
      .values(hit)
      .onConflict((conflict) =>
        conflict
          .columns(['bucket', 'subject', 'windowStart'])
          .doUpdateSet({ hits: sql<number>`rate_limit_counters.hits + excluded.hits` }),
      )
      .returning('hits'),
);

/** Hits of one window waiting to be counted, each with the caller waiting for its count. */
interface WaitingHits {
  callers: Array<{ resolve(hits: number): void; reject(error: unknown): void }>;
}

/** A hit given back (never below 0). */
const takeBackHit = preparedQuery((hit: { bucket: string; subject: string; windowStart: Date }) =>
  db
    .updateTable('rateLimitCounters')
    .set((eb) => ({ hits: eb('hits', '-', 1) }))
    .where('bucket', '=', hit.bucket)
    .where('subject', '=', hit.subject)
    .where('windowStart', '=', hit.windowStart)
    .where('hits', '>', 0),
);

/**
 * Counters shared by every replica: atomic upserts, so concurrent hits on
 * several processes are all counted.
 *
 * Every request of a limited route counts a hit, and the hits of one
 * address in one window all land on one row: under load from one address
 * each upsert waited for the row lock of the one before it, one statement
 * and one round trip per request. Here one process sends at most one
 * upsert per window at a time; hits that come while it is under way wait,
 * and go together as the next, counted `+ n`. Each caller gets a count of
 * its own (the n counts up to the one the upsert answers), as if the hits
 * had been sent one after the other, and a refused request is counted as
 * before.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  /** Per window (bucket, subject, start and end): whether an upsert is under way, and the hits waiting for it. */
  private readonly windows = new Map<string, WaitingHits | null>();

  constructor(private readonly dataSource: DataSource) {}

  async hit(bucket: string, subject: string, windowMs: number, nowMs: number) {
    const startMs = windowStartOf(nowMs, windowMs);
    const endMs = startMs + windowMs;
    const key = `${bucket}\u0000${subject}\u0000${startMs}\u0000${endMs}`;
    const hits = await new Promise<number>((resolve, reject) => {
      const underWay = this.windows.get(key);
      if (underWay === undefined) {
        // Nothing under way: this hit goes at once, alone.
        this.windows.set(key, null);
        this.count(key, { bucket, subject, startMs, endMs }, [{ resolve, reject }]);
      } else if (underWay === null) {
        this.windows.set(key, { callers: [{ resolve, reject }] });
      } else {
        underWay.callers.push({ resolve, reject });
      }
    });
    return { hits, resetAtMs: endMs };
  }

  /** Counts the hits of `callers` in one upsert, then the hits that came meanwhile. */
  private count(
    key: string,
    window: { bucket: string; subject: string; startMs: number; endMs: number },
    callers: WaitingHits['callers'],
  ): void {
    // Whatever fails, even while the statement is built, fails these callers and frees the window.
    Promise.resolve()
      .then(() =>
        fetchOne(
          this.dataSource.manager,
          countHits({
            bucket: window.bucket,
            subject: window.subject,
            windowStart: new Date(window.startMs),
            expiresAt: new Date(window.endMs),
            hits: callers.length,
          }),
        ),
      )
      .then(
        (row) => {
          const last = Number(row!.hits);
          callers.forEach((caller, i) => caller.resolve(last - callers.length + 1 + i));
        },
        (error: unknown) => callers.forEach((caller) => caller.reject(error)),
      )
      .finally(() => {
        const waiting = this.windows.get(key);
        if (waiting) {
          this.windows.set(key, null);
          this.count(key, window, waiting.callers);
        } else {
          this.windows.delete(key);
        }
      });
  }

  async unhit(bucket: string, subject: string, windowStartMs: number): Promise<void> {
    await execute(
      this.dataSource.manager,
      takeBackHit({ bucket, subject, windowStart: new Date(windowStartMs) }),
    );
  }

  async sweep(nowMs: number): Promise<void> {
    await execute(
      this.dataSource.manager,
      db.deleteFrom('rateLimitCounters').where('expiresAt', '<=', new Date(nowMs)),
    );
  }
}
