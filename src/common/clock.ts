import { Injectable } from '@nestjs/common';

/**
 * The service's notion of "now". Code that decides by time (token expiry,
 * rate-limit windows, outbox back-off) asks this instead of `new Date()`, so
 * tests can move time without waiting.
 *
 * In production nothing moves it and it is the system clock. A moved clock
 * keeps running: it holds an offset from the system clock, not a frozen instant.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock forward (or back, with a negative value) by `ms`. */
  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`Cannot advance the clock by ${ms}`);
    this.offsetMs += ms;
  }

  /** Makes "now" this instant; the clock keeps running from there. */
  set(date: Date): void {
    const target = date.getTime();
    if (!Number.isFinite(target)) throw new RangeError('Cannot set the clock to an invalid date');
    this.offsetMs = target - Date.now();
  }

  /** Back to the system clock. */
  reset(): void {
    this.offsetMs = 0;
  }
}
