/** A timestamp of an answer, as ISO 8601 in UTC. */
export function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
