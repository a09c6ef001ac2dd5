import { Client, QueryConfig } from 'pg';

/*
 * Statements the service sends again and again go to PostgreSQL as named
 * prepared statements. An unnamed statement is parsed, analyzed and planned
 * by PostgreSQL every time it is sent; a named one is parsed and analyzed
 * once per connection, then only bound, planned for its values (see
 * PLAN_CACHE_MODE in pipelined-client.ts) and run. The hot statements are
 * long (an order's held writes are a few kilobytes of SQL), so the
 * database's work per order falls, and the client sends only the values.
 *
 * A text is named the second time it is sent with parameters: most texts
 * the service sends are the same few hundred (built once, see
 * prepared-query.ts), but some carry lists in their text and are sent once
 * each. At most MAX_NAMED texts are named for the life of the process; past
 * that, new texts are sent unnamed, as before. A name is never given to
 * another text, so what a connection has prepared stays true.
 */

/** Texts named at most: each is prepared once on every connection that sends it. */
const MAX_NAMED = 400;
/**
 * Texts seen once kept at most before that count starts again: each is held
 * in memory (a few KiB for the longest), and a text sent again soon after
 * is named long before the count starts again.
 */
const MAX_SEEN = 500;

const named = new Map<string, string>();
const seenOnce = new Set<string>();

/**
 * The name `text` is sent under, or undefined to send it unnamed: a text
 * sent with parameters is named from its second time on.
 */
export function statementName(
  text: string,
  values: readonly unknown[] | undefined,
): string | undefined {
  if (!values || values.length === 0) return undefined;
  const name = named.get(text);
  if (name !== undefined || named.size >= MAX_NAMED) return name;
  if (!seenOnce.has(text)) {
    if (seenOnce.size >= MAX_SEEN) seenOnce.clear();
    seenOnce.add(text);
    return undefined;
  }
  seenOnce.delete(text);
  const given = `s${named.size + 1}`;
  named.set(text, given);
  return given;
}

/**
 * The pool's client: a statement sent as text and values (as TypeORM and
 * the query builder send them) goes under its name when it has one.
 */
export class NamingClient extends Client {
  override query(...args: unknown[]): never {
    const [config, values] = args;
    if (typeof config === 'string' && Array.isArray(values)) {
      const name = statementName(config, values);
      if (name !== undefined) {
        const named: QueryConfig = { text: config, values, name };
        return (super.query as (...rest: unknown[]) => never)(named, ...args.slice(2));
      }
    }
    return (super.query as (...rest: unknown[]) => never)(...args);
  }
}
