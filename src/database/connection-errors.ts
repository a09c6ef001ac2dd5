import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

/** Socket-level failures between the service and PostgreSQL. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that is going away or not there yet:
 * class 08 (connection exception) and 57P01–57P03 (terminated by the
 * administrator, crash shutdown, cannot connect now).
 */
function isOutageState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03';
}

/** Messages of pg and its pool for a connection that died or never came. */
const OUTAGE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /client has encountered a connection error/i,
  /client was closed and is not queryable/i,
  /cannot use a pool after calling end/i,
  /connection is not open/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /connect ENOENT .*\.s\.PGSQL\./, // the embedded database's socket file is gone
];

// R29: never a 5xx for bad input.
/**
 * True when `error` (as thrown by pg, TypeORM or the embedded database's
 * socket) means the database cannot be reached, or that the connection of a
 * transaction died under it: an outage, answered 503, not a defect. TypeORM wraps driver errors (`driverError`); pg keeps socket
 * errors as they came.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // TypeORM releases a transaction's query runner when its connection dies
  // (the pg client's 'error' event); the transaction's next statement then
  // fails with one of these instead of the driver's error. Same outage.
  if (
    error instanceof QueryRunnerAlreadyReleasedError ||
    error instanceof QueryRunnerProviderAlreadyReleasedError
  ) {
    return true;
  }
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || isOutageState(code))) return true;
    if (typeof message === 'string' && OUTAGE_MESSAGES.some((pattern) => pattern.test(message))) {
      return true;
    }
    const inner = current as { driverError?: unknown; cause?: unknown };
    current = inner.driverError ?? inner.cause;
  }
  return false;
}
