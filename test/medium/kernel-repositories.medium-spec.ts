import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { HealthRepository } from '../../src/health/health.repository';
import { MetricsRepository } from '../../src/metrics/metrics.repository';
import { PostgresRateLimitStore } from '../../src/rate-limit/rate-limit-counter.repository';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The kernel's small repositories on a real database: the shared
 * rate-limit counters (run here on both engines, though the service uses
 * them only on PostgreSQL), the readiness probe's statement and the outbox
 * counts /metrics reports.
 */
describe('kernel repositories (medium)', () => {
  let ctx: MediumContext;

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [HealthRepository, MetricsRepository] });
  });
  afterAll(() => ctx?.close());

  describe('rate-limit counters', () => {
    const WINDOW = 60_000;
    const now = Date.UTC(2026, 0, 1, 12, 0, 30);
    let store: PostgresRateLimitStore;
    beforeAll(() => {
      store = new PostgresRateLimitStore(ctx.get(DataSource));
    });

    it('counts hits per bucket, subject and window, and answers when the window ends', async () => {
      const subject = randomUUID().replace(/-/g, '');
      const windowEnd = Date.UTC(2026, 0, 1, 12, 1, 0);
      expect(await store.hit('login', subject, WINDOW, now)).toEqual({
        hits: 1,
        resetAtMs: windowEnd,
      });
      expect(await store.hit('login', subject, WINDOW, now + 1000)).toEqual({
        hits: 2,
        resetAtMs: windowEnd,
      });
      expect((await store.hit('other', subject, WINDOW, now)).hits).toBe(1);
      expect((await store.hit('login', subject, WINDOW, windowEnd)).hits).toBe(1);
    });

    it('counts every one of concurrent hits', async () => {
      const subject = randomUUID().replace(/-/g, '');
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => store.hit('burst', subject, WINDOW, now)),
      );
      expect(answers.map((answer) => answer.hits).sort((a, b) => a - b)).toEqual([
        1, 2, 3, 4, 5, 6, 7, 8,
      ]);
    });

    it('counts concurrent hits of one window in fewer upserts, each caller its own count, beside another replica', async () => {
      const subject = randomUUID().replace(/-/g, '');
      const replica = new PostgresRateLimitStore(ctx.get(DataSource));
      const spy = jest.spyOn(ctx.get(DataSource).manager, 'query');
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 4 === 3 ? replica : store).hit('pile', subject, WINDOW, now),
        ),
      );
      const upserts = spy.mock.calls.length;
      spy.mockRestore();
      expect(answers.map((answer) => answer.hits).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      // One upsert under way per window and process: the rest wait and go together.
      expect(upserts).toBeLessThan(40);
      const [row] = await ctx.sql<{ hits: number }>(
        'SELECT hits FROM rate_limit_counters WHERE bucket = $1 AND subject = $2',
        ['pile', subject],
      );
      expect(row.hits).toBe(40);
      // Another window of the same subject is counted apart, and the store forgets settled windows.
      expect((await store.hit('pile', subject, WINDOW, now + WINDOW)).hits).toBe(1);
      expect((store as unknown as { windows: Map<string, unknown> }).windows.size).toBe(0);
    });

    it('fails every hit of a failed upsert, and counts the window again afterwards', async () => {
      const subject = randomUUID().replace(/-/g, '');
      // Longer than the column: the upsert fails.
      const bucket = 'x'.repeat(65);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, () => store.hit(bucket, subject, WINDOW, now)),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(6).fill('rejected'));
      expect((store as unknown as { windows: Map<string, unknown> }).windows.size).toBe(0);
      const [{ n }] = await ctx.sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM rate_limit_counters WHERE subject = $1',
        [subject],
      );
      expect(n).toBe(0);
      expect((await store.hit('after', subject, WINDOW, now)).hits).toBe(1);
    });

    it('gives a hit back, never below zero, and only to the window it names', async () => {
      const subject = randomUUID().replace(/-/g, '');
      const start = Date.UTC(2026, 0, 1, 12, 0, 0);
      await store.hit('unhit', subject, WINDOW, now);
      await store.unhit('unhit', subject, start - WINDOW);
      await store.unhit('unhit', subject, start);
      await store.unhit('unhit', subject, start);
      const [row] = await ctx.sql<{ hits: number }>(
        'SELECT hits FROM rate_limit_counters WHERE bucket = $1 AND subject = $2',
        ['unhit', subject],
      );
      expect(row.hits).toBe(0);
      expect((await store.hit('unhit', subject, WINDOW, now)).hits).toBe(1);
    });

    it('sweeps the windows that ended, and only those', async () => {
      const subject = randomUUID().replace(/-/g, '');
      await store.hit('sweep', subject, WINDOW, now);
      await store.hit('sweep', subject, WINDOW, now + WINDOW);
      await store.sweep(Date.UTC(2026, 0, 1, 12, 1, 0));
      const rows = await ctx.sql<{ window_start: Date }>(
        'SELECT window_start FROM rate_limit_counters WHERE bucket = $1 AND subject = $2',
        ['sweep', subject],
      );
      expect(rows.map((row) => new Date(row.window_start).getTime())).toEqual([
        Date.UTC(2026, 0, 1, 12, 1, 0),
      ]);
    });
  });

  it('the readiness statement answers while the database does', async () => {
    await expect(ctx.get(HealthRepository).ping()).resolves.toBeUndefined();
  });

  it('counts pending and failed outbox rows, nothing else', async () => {
    const metrics = ctx.get(MetricsRepository);
    const before = await metrics.countOutboxRows();
    const insert = (status: string) =>
      ctx.sql(
        // Due tomorrow, so that the outbox worker leaves the pending rows alone.
        `INSERT INTO outbox (kind, payload, status, available_at)
         VALUES ('mail', '{}'::jsonb, $1, now() + interval '1 day')`,
        [status],
      );
    await insert('pending');
    await insert('pending');
    await insert('failed');
    await insert('sent');
    expect(await metrics.countOutboxRows()).toEqual({
      pending: before.pending + 2,
      failed: before.failed + 1,
    });
  });
});
