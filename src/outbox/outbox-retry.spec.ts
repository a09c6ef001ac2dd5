import { OUTBOX_MAX_ATTEMPTS, retryDelayMs } from './outbox-retry';

describe('outbox back-off', () => {
  const middle = () => 0.5;

  it('doubles from 30 seconds', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(attempt, middle))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
  });

  it('is capped at one hour', () => {
    expect(retryDelayMs(8, middle)).toBe(3_600_000);
    expect(retryDelayMs(50, middle)).toBe(3_600_000);
  });

  it('jitters by at most 20 % either way', () => {
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 0.999999)).toBeLessThanOrEqual(36_000);
    expect(retryDelayMs(1, () => 0.999999)).toBeGreaterThan(35_999);
  });

  it('gives up after a few hours, not minutes', () => {
    let total = 0;
    for (let attempt = 1; attempt < OUTBOX_MAX_ATTEMPTS; attempt += 1) {
      total += retryDelayMs(attempt, middle);
    }
    expect(total).toBeGreaterThan(2 * 3_600_000);
    expect(total).toBeLessThan(6 * 3_600_000);
  });
});
