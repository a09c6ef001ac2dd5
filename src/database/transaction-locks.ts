import { RawBuilder } from 'kysely';
import { EntityManager } from 'typeorm';
import { Bound } from './prepared-query';
import { compileRaw, execute, fetchOne, sql } from './query-builder';

/**
 * What a transaction lock is taken on: an order and everything of it that
 * several modules change (its row, its payments), so that every transaction
 * touching two of them takes this lock first and none waits on another in a
 * circle. `guest_messages` is a business's message count for its monthly
 * limit (taken after an order's lock, never before one).
 */
export type LockScope = 'order' | 'guest_messages';

/**
 * A transaction-scoped advisory lock on (scope, id), as an expression a
 * statement can evaluate (in the select list of a `SELECT … FOR UPDATE`, it
 * is taken before the row lock). Held until the transaction ends; taking it
 * again in the same transaction returns at once.
 */
export function transactionLock(scope: LockScope, id: string): RawBuilder<unknown> {
  // In a prepared query, `id` is a stand-in: the key is made when it is bound.
  const given: unknown = id;
  const key =
    given instanceof Bound ? given.map((value) => `${scope}:${String(value)}`) : `${scope}:${id}`;
  return sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/** Takes the lock of `transactionLock` in a statement of its own. */
export async function takeTransactionLock(
  manager: EntityManager,
  scope: LockScope,
  id: string,
): Promise<void> {
  await execute(manager, compileRaw(sql`SELECT ${transactionLock(scope, id)}`));
}

/**
 * Takes the lock of `transactionLock` only if nobody holds it: false at once
 * when another transaction does (a worker's claim that skips what is busy,
 * as `FOR UPDATE SKIP LOCKED` skips a locked row).
 */
export async function tryTransactionLock(
  manager: EntityManager,
  scope: LockScope,
  id: string,
): Promise<boolean> {
  const row = await fetchOne(
    manager,
    compileRaw(
      sql<{
        taken: boolean;
      }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${`${scope}:${id}`}, 0)) AS taken`,
    ),
  );
  return row?.taken === true;
}
