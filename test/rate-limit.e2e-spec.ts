import { ApiError } from '../src/http/api-error';
import { Clock } from '../src/common/clock';
import { RateLimitService } from '../src/rate-limit/rate-limit.service';
import { startTestApp, TestApp } from './support/test-app';
import { describeServerOnly } from './support/server-only';

async function refusal(promise: Promise<void>): Promise<ApiError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

// R46: placement rate limit.
describe('RateLimitService', () => {
  let t: TestApp;
  let limiter: RateLimitService;
  let clock: Clock;

  beforeAll(async () => {
    t = await startTestApp();
    limiter = t.app.get(RateLimitService);
    clock = t.app.get(Clock);
  });
  afterAll(() => t?.close());
  afterEach(() => clock.reset());

  it('lets `limit` hits through, then answers 429 RATE_LIMITED with Retry-After', async () => {
    // Start at the beginning of a window so the test does not straddle two.
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000));
    for (let i = 0; i < 3; i += 1) await limiter.consume('test-basic', 'k1', 3, 60);
    const error = await refusal(limiter.consume('test-basic', 'k1', 3, 60));
    expect(error?.getStatus()).toBe(429);
    expect(error?.code).toBe('RATE_LIMITED');
    const retryAfter = Number(error?.headers['Retry-After']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Other keys and other buckets are not affected.
    await limiter.consume('test-basic', 'k2', 3, 60);
    await limiter.consume('test-other', 'k1', 3, 60);
  });

  it('opens again when the window has passed', async () => {
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 120_000));
    await limiter.consume('test-window', 'k', 1, 60);
    expect((await refusal(limiter.consume('test-window', 'k', 1, 60)))?.code).toBe('RATE_LIMITED');
    clock.advance(60_000);
    await limiter.consume('test-window', 'k', 1, 60);
  });

  it('counts concurrent hits exactly', async () => {
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 180_000));
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, () => refusal(limiter.consume('test-concurrent', 'k', 10, 60))),
    );
    expect(outcomes.filter((error) => error === undefined)).toHaveLength(10);
    expect(outcomes.filter((error) => error?.code === 'RATE_LIMITED')).toHaveLength(15);
  });

  it('refuses bucket names and limits that are programming mistakes', async () => {
    await expect(limiter.consume('Bad Bucket!', 'k', 1, 60)).rejects.toThrow(/bucket/);
    await expect(limiter.consume('ok', 'k', 0, 60)).rejects.toThrow(/limit/);
    await expect(limiter.consume('ok', 'k', 1, 0)).rejects.toThrow(/window/);
  });

  describeServerOnly('on a PostgreSQL server (several replicas)', () => {
    it('shares counters between two processes of one database', async () => {
      const other = await startTestApp(
        {},
        { database: { env: { DATABASE_URL: t.config.databaseUrl! }, drop: async () => {} } },
      );
      try {
        const windowStart = Math.ceil(Date.now() / 60_000) * 60_000 + 240_000;
        clock.set(new Date(windowStart));
        other.app.get(Clock).set(new Date(windowStart));
        const second = other.app.get(RateLimitService);
        await limiter.consume('test-shared', 'k', 2, 60);
        await second.consume('test-shared', 'k', 2, 60);
        expect((await refusal(limiter.consume('test-shared', 'k', 2, 60)))?.code).toBe(
          'RATE_LIMITED',
        );
        expect((await refusal(second.consume('test-shared', 'k', 2, 60)))?.code).toBe(
          'RATE_LIMITED',
        );
      } finally {
        await other.close();
      }
    });

    it('stores keys hashed and sweeps ended windows', async () => {
      clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 300_000));
      await limiter.consume('test-hash', 'someone@example.test', 5, 60);
      const rows: Array<{ subject: string }> = await t.dataSource.query(
        `SELECT subject FROM rate_limit_counters WHERE bucket = 'test-hash'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].subject).toMatch(/^[0-9a-f]{64}$/);
      // A sweep runs at most once a minute; two minutes on, the old window goes.
      clock.advance(120_000);
      await limiter.consume('test-sweep', 'k', 5, 60);
      const left = await t.dataSource.query(
        `SELECT 1 FROM rate_limit_counters WHERE bucket = 'test-hash'`,
      );
      expect(left).toHaveLength(0);
    });
  });
});
