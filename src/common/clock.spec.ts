import { Clock } from './clock';

describe('Clock', () => {
  it('follows the system clock until moved', () => {
    const clock = new Clock();
    const before = Date.now();
    const now = clock.nowMs();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('advance() moves it forward and it keeps running', () => {
    const clock = new Clock();
    clock.advance(30 * 60_000);
    const expected = Date.now() + 30 * 60_000;
    expect(Math.abs(clock.nowMs() - expected)).toBeLessThan(1000);
    clock.advance(-30 * 60_000);
    expect(Math.abs(clock.nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('set() jumps to an instant, reset() goes back to the system clock', () => {
    const clock = new Clock();
    clock.set(new Date('2030-01-01T00:00:00Z'));
    expect(Math.abs(clock.nowMs() - Date.parse('2030-01-01T00:00:00Z'))).toBeLessThan(1000);
    expect(clock.now()).toBeInstanceOf(Date);
    clock.reset();
    expect(Math.abs(clock.nowMs() - Date.now())).toBeLessThan(1000);
  });

  it('refuses non-finite moves', () => {
    const clock = new Clock();
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    expect(() => clock.set(new Date('not a date'))).toThrow(RangeError);
  });
});
