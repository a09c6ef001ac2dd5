const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids are checked before they reach SQL: a malformed one names no record (404). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
