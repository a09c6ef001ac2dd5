import { Compilable, OperationNodeSource } from 'kysely';
import { EntityManager } from 'typeorm';
import { compileRaw, execute, sql } from './query-builder';

/** A statement built with the query builder (or the `sql` tag), not yet compiled. */
export type HeldWrite = Compilable<unknown> & OperationNodeSource;

/** The writes held for each transaction that asked to send them together. */
const held = new WeakMap<EntityManager, HeldWrite[]>();

/**
 * A write whose outcome nothing later in its transaction reads (a row for
 * another reader, an UPDATE of a row this transaction is done with, a
 * `SELECT pg_notify(…)`). In a transaction run by `sendWritesTogether`, it
 * is held and sent with the others of its kind in one statement just before
 * the transaction commits; anywhere else it is sent at once. Either way it
 * commits or rolls back with the transaction, and a failure fails the
 * transaction.
 */
export async function writeBeforeCommit(manager: EntityManager, write: HeldWrite): Promise<void> {
  const writes = held.get(manager);
  if (writes) writes.push(write);
  else await execute(manager, write);
}

/**
 * Runs `work` in the transaction of `manager`, then sends the writes it held
 * (see writeBeforeCommit) as one statement: each becomes a data-modifying
 * `WITH` part of it (a SELECT part is read by the statement, so that it runs),
 * in one round trip instead of one each. Nothing is sent if `work` fails.
 */
export async function sendWritesTogether<T>(
  manager: EntityManager,
  work: () => Promise<T>,
): Promise<T> {
  if (held.has(manager)) return work();
  const writes: HeldWrite[] = [];
  held.set(manager, writes);
  try {
    const result = await work();
    held.delete(manager);
    await sendTogether(manager, writes);
    return result;
  } finally {
    held.delete(manager);
  }
}

async function sendTogether(manager: EntityManager, writes: HeldWrite[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await execute(manager, writes[0]);
    return;
  }
  // The builder numbers the parameters of every part in one statement.
  const parts = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`);
  const selects = writes.flatMap((write, i) =>
    write.toOperationNode().kind === 'SelectQueryNode'
      ? [sql.raw(`(SELECT count(*) FROM w${i})`)]
      : [],
  );
  const reads = selects.length ? sql.join(selects, sql`, `) : sql`1`;
  await execute(manager, compileRaw(sql`WITH ${sql.join(parts, sql`, `)} SELECT ${reads}`));
}
