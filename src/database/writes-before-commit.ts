import { EntityManager } from 'typeorm';

interface HeldWrite {
  sql: string;
  params: unknown[];
}

/** The writes held for each transaction that asked to send them together. */
const held = new WeakMap<EntityManager, HeldWrite[]>();

const PLACEHOLDER = /\$(\d+)/g;

/**
 * A write whose outcome nothing later in its transaction reads (a row for
 * another reader, an UPDATE of a row this transaction is done with, a
 * `SELECT pg_notify(…)`). In a transaction run by `sendWritesTogether`, it
 * is held and sent with the others of its kind in one statement just before
 * the transaction commits; anywhere else it is sent at once. Either way it
 * commits or rolls back with the transaction, and a failure fails the
 * transaction. The SQL may use `$n` only as parameters.
 */
export async function writeBeforeCommit(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<void> {
  const writes = held.get(manager);
  if (writes) writes.push({ sql, params });
  else await manager.query(sql, params);
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
    await manager.query(writes[0].sql, writes[0].params);
    return;
  }
  const params: unknown[] = [];
  const parts: string[] = [];
  const selects: string[] = [];
  writes.forEach((write, i) => {
    const offset = params.length;
    const sql = write.sql.trim().replace(PLACEHOLDER, (_, n: string) => `$${Number(n) + offset}`);
    params.push(...write.params);
    parts.push(`w${i} AS (${sql})`);
    if (/^select\b/i.test(sql)) selects.push(`(SELECT count(*) FROM w${i})`);
  });
  await manager.query(`WITH ${parts.join(',\n')}\nSELECT ${selects.join(', ') || '1'}`, params);
}
