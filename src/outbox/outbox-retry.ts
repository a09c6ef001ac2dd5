/** Deliveries a row gets before it is marked failed and left for a person. */
export const OUTBOX_MAX_ATTEMPTS = 10;

const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 60 * 60_000;

/**
 * Exponential back-off after the `attempts`-th failure: 30 s, 1 min, 2 min …
 * capped at one hour, with ±20 % jitter so rows that failed together (an SMTP
 * outage) do not all come back in the same second. Ten attempts span about
 * three hours.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** exponent);
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Thrown by a handler when retrying cannot help (a malformed payload): the row fails at once. */
export class PermanentDeliveryError extends Error {}
