import { DataSource } from 'typeorm';
import { execute, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import { RateLimitCounterEntity } from './rate-limit-counter.entity';
import { RateLimitStore, windowStartOf } from './rate-limit.store';

const db = queryBuilder<{ rateLimitCounters: Table<RateLimitCounterEntity, 'hits'> }>();

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
      db
        .insertInto('rateLimitCounters')
        .values({
          bucket,
          subject,
          windowStart: new Date(startMs),
          expiresAt: new Date(endMs),
          hits: 1,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['bucket', 'subject', 'windowStart'])
            .doUpdateSet({ hits: sql<number>`rate_limit_counters.hits + 1` }),
        )
        .returning('hits'),
    );
    return { hits: Number(row!.hits), resetAtMs: endMs };
  }

  async unhit(bucket: string, subject: string, windowStartMs: number): Promise<void> {
    await execute(
      this.dataSource.manager,
      db
        .updateTable('rateLimitCounters')
        .set((eb) => ({ hits: eb('hits', '-', 1) }))
        .where('bucket', '=', bucket)
        .where('subject', '=', subject)
        .where('windowStart', '=', new Date(windowStartMs))
        .where('hits', '>', 0),
    );
  }

  async sweep(nowMs: number): Promise<void> {
    await execute(
      this.dataSource.manager,
      db.deleteFrom('rateLimitCounters').where('expiresAt', '<=', new Date(nowMs)),
    );
  }
}
