import { Compilable, CompiledQuery, OperationNode, OperationNodeSource } from 'kysely';

/*
 * Every statement the service sends is planned at each run (see
 * PLAN_CACHE_MODE in pipelined-client.ts): a plan kept from a statement's
 * earlier runs was made for the tables as they were then, and a lookup
 * planned while a table held a few rows stays a sequential scan as the
 * table grows. Planning is a good share of what PostgreSQL does for the
 * hottest writes, though: an order's insert with its lines and history is
 * planned anew for every order, and so is each foreign-key check of the
 * rows it inserts.
 *
 * A statement whose every plan is a walk by keys (rows inserted from its
 * parameters, rows changed or read by their primary key or by the key an
 * index leads with, such as a payment's order) has one good plan whatever
 * its tables hold. Such a statement is marked (`keepPlan`): inside
 * a transaction it is run with `plan_cache_mode = force_generic_plan` and
 * `enable_seqscan = off`, set for that statement alone, so each connection
 * plans it once, without sequential scans, and keeps that plan; the
 * foreign-key checks of the rows it writes are planned and kept the same
 * way. The settings go back to the session's before the next statement, in
 * the same write (see transaction-round-trips.ts). Outside a transaction a
 * marked statement runs as any other.
 *
 * Only a statement whose plan cannot depend on the tables' sizes may be
 * marked: a read that filters or joins on anything but a key is planned at
 * each run, as before.
 */

/** The comment a marked statement's text begins with. */
export const PLAN_KEPT = '/* plan kept */ ';

/** `compiled` with its text marked as a statement whose plan may be kept. */
export function markKept<O>(compiled: CompiledQuery<O>): CompiledQuery<O> {
  return { ...compiled, sql: PLAN_KEPT + compiled.sql };
}

/** Whether `text` is a statement marked by keepPlan. */
export function isPlanKept(text: string): boolean {
  return text.startsWith(PLAN_KEPT);
}

/** `query`, marked: its text begins with PLAN_KEPT. As part of another statement it is unmarked. */
export class KeptPlan<O> implements Compilable<O>, OperationNodeSource {
  constructor(private readonly query: Compilable<O> & OperationNodeSource) {}

  /** The kind of the query as built, as PreparedRun answers it. */
  get kind(): string {
    const query = this.query as { kind?: string };
    return query.kind ?? this.query.toOperationNode().kind;
  }

  compile(): CompiledQuery<O> {
    return markKept(this.query.compile());
  }

  toOperationNode(): OperationNode {
    return this.query.toOperationNode();
  }
}

/** Marks `query` as a statement whose plan each connection may keep (see above). */
export function keepPlan<O>(query: Compilable<O> & OperationNodeSource): KeptPlan<O> {
  return new KeptPlan(query);
}
