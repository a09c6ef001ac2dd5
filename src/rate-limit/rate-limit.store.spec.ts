import { MemoryRateLimitStore, windowStartOf } from './rate-limit.store';

describe('fixed windows', () => {
  it('align to the epoch so every replica agrees', () => {
    expect(windowStartOf(0, 60_000)).toBe(0);
    expect(windowStartOf(59_999, 60_000)).toBe(0);
    expect(windowStartOf(60_000, 60_000)).toBe(60_000);
    expect(windowStartOf(125_000, 60_000)).toBe(120_000);
  });
});

describe('MemoryRateLimitStore', () => {
  it('counts hits per bucket and subject within one window', async () => {
    const store = new MemoryRateLimitStore();
    expect(await store.hit('login-ip', 'a', 60_000, 1_000)).toEqual({ hits: 1, resetAtMs: 60_000 });
    expect(await store.hit('login-ip', 'a', 60_000, 2_000)).toEqual({ hits: 2, resetAtMs: 60_000 });
    expect((await store.hit('login-ip', 'b', 60_000, 2_000)).hits).toBe(1);
    expect((await store.hit('login-email', 'a', 60_000, 2_000)).hits).toBe(1);
  });

  it('starts again in the next window', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('x', 'a', 60_000, 59_000);
    await store.hit('x', 'a', 60_000, 59_500);
    expect(await store.hit('x', 'a', 60_000, 60_000)).toEqual({ hits: 1, resetAtMs: 120_000 });
  });

  it('takes back a hit of the window it was counted in, never below zero, never another window', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('x', 'a', 60_000, 1_000);
    await store.hit('x', 'a', 60_000, 2_000);
    await store.unhit('x', 'a', 0);
    expect((await store.hit('x', 'a', 60_000, 3_000)).hits).toBe(2);
    // A hit of the window before is not taken from the current one.
    await store.hit('x', 'b', 60_000, 61_000);
    await store.unhit('x', 'b', 0);
    expect((await store.hit('x', 'b', 60_000, 62_000)).hits).toBe(2);
    await store.unhit('x', 'c', 0);
    expect((await store.hit('x', 'c', 60_000, 3_000)).hits).toBe(1);
  });

  it('sweeps ended windows only', async () => {
    const store = new MemoryRateLimitStore();
    await store.hit('x', 'old', 60_000, 1_000);
    await store.hit('x', 'new', 60_000, 61_000);
    await store.sweep(61_000);
    expect(store.size).toBe(1);
    expect((await store.hit('x', 'new', 60_000, 62_000)).hits).toBe(2);
  });
});
