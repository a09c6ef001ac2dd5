import { DataSource } from 'typeorm';
import { BatchUnderWay } from '../database/batch-under-way';
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
  /** Per window under way (bucket, subject, start and end): its upserts, one at a time. */
  private readonly windows = new Map<string, BatchUnderWay<null, number>>();

  constructor(private readonly dataSource: DataSource) {}

  async hit(bucket: string, subject: string, windowMs: number, nowMs: number) {
    const startMs = windowStartOf(nowMs, windowMs);
    const endMs = startMs + windowMs;
    const key = `${bucket}\u0000${subject}\u0000${startMs}\u0000${endMs}`;
    let window = this.windows.get(key);
    if (!window) {
      window = new BatchUnderWay(
        (hits) => this.count({ bucket, subject, startMs, endMs }, hits.length),
        () => this.windows.delete(key),
      );
      this.windows.set(key, window);
    }
    return { hits: await window.add(null), resetAtMs: endMs };
  }

  /** Counts `n` hits in one upsert; answers each its own count, as if they had gone one by one. */
  private async count(
    window: { bucket: string; subject: string; startMs: number; endMs: number },
    n: number,
  ): Promise<number[]> {
    const row = await fetchOne(
      this.dataSource.manager,
      countHits({
        bucket: window.bucket,
        subject: window.subject,
        windowStart: new Date(window.startMs),
        expiresAt: new Date(window.endMs),
        hits: n,
      }),
    );
    const last = Number(row!.hits);
    return Array.from({ length: n }, (_, i) => last - n + 1 + i);
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
