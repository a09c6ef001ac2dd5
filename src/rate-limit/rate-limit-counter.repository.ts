import { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query';
import { execute, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import { RateLimitCounterEntity } from './rate-limit-counter.entity';
import { RateLimitStore, windowStartOf } from './rate-limit.store';

const db = queryBuilder<{ rateLimitCounters: Table<RateLimitCounterEntity, 'hits'> }>();

/** One hit of a window, counted in one upsert (every request of a limited route sends it). */
const countHit = preparedQuery(
  (hit: { bucket: string; subject: string; windowStart: Date; expiresAt: Date }) =>
    db
      .insertInto('rateLimitCounters')
      .values({ ...hit, hits: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(['bucket', 'subject', 'windowStart'])
          .doUpdateSet({ hits: sql<number>`rate_limit_counters.hits + 1` }),
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
 * Counters shared by every replica: one atomic upsert per hit, so concurrent
 * hits on several processes are all counted.
 */
export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly dataSource: DataSource) {}

  async hit(bucket: string, subject: string, windowMs: number, nowMs: number) {
    const startMs = windowStartOf(nowMs, windowMs);
    const endMs = startMs + windowMs;
    const row = await fetchOne(
      this.dataSource.manager,
      countHit({ bucket, subject, windowStart: new Date(startMs), expiresAt: new Date(endMs) }),
    );
    return { hits: Number(row!.hits), resetAtMs: endMs };
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
