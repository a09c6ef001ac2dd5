import { Compilable, CompiledQuery, OperationNodeSource, WithNode } from 'kysely';
import { EntityManager } from 'typeorm';
import { runAllAndCommit, runAndCommit } from './transaction-round-trips';
import { KeptPlan, markKept } from './kept-plans';
import { PreparedRun } from './prepared-query';
import { compileRaw, execute, fetchAll, fetchOne, sql, toCamel } from './query-builder';

/** A statement built with the query builder (or the `sql` tag), not yet compiled. */
export type HeldWrite = Compilable<unknown> & OperationNodeSource;

/** The writes held for each transaction that asked to send them together. */
const held = new WeakMap<EntityManager, HeldWrite[]>();

/** A held write whose rows its transaction reads once the held writes have been sent. */
interface HeldLead {
  write: HeldWrite;
  then(rows: Record<string, unknown>[]): Promise<void>;
  settled?: HeldWrite;
}

/**
 * The SQLSTATE of `checks_before_commit` (a function of the migrations): a
 * statement sent with its transaction's COMMIT found that a leading write's
 * `then` has work to do, so the transaction rolled back and must be run
 * again with the COMMIT on its own.
 */
export const CHECKS_DUE_SQLSTATE = 'SV001';

/**
 * The same signal raised by the service itself: work that finds it cannot
 * go on as this run of its transaction planned fails the transaction with
 * it, and the event bus runs the transaction again.
 */
export function checksDue(reason: string): Error {
  return Object.assign(new Error(`checks are due before this transaction commits: ${reason}`), {
    code: CHECKS_DUE_SQLSTATE,
  });
}

/** Whether `error` is that signal (thrown as TypeORM throws a failed query's). */
export function isChecksDue(error: unknown): boolean {
  const failed = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return (failed?.driverError?.code ?? failed?.code) === CHECKS_DUE_SQLSTATE;
}

/**
 * How a transaction run by sendWritesTogether may send its COMMIT with the
 * statement of its held writes, in one round trip (see runAndCommit).
 */
export interface CommitWithLast {
  /** Asked once the work is done: whether nothing else runs between that statement and the commit. */
  allowed(): boolean;
  /** Set once the statement has carried the commit. */
  committed: boolean;
}

/** The leading writes (writeLeadingBeforeCommit) each such transaction holds, in the order held. */
const leading = new WeakMap<EntityManager, HeldLead[]>();

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
 * A write whose returned rows its transaction reads, but only at its end:
 * held like writeBeforeCommit's and sent as the part of their statement the
 * statement reads first, so PostgreSQL runs it to completion before any
 * held write (its row locks come before theirs). `then` gets its rows (keys
 * in camelCase) once that statement has answered, still in the transaction:
 * what it writes is sent at once, and a throw rolls the transaction back.
 * For a write whose rows other transactions wait for: they are locked by
 * the last statement before the commit, in no round trip of their own.
 * Outside sendWritesTogether it is sent at once.
 *
 * A transaction may hold several: they run in the order they were held,
 * each whole before the next (so their row locks are taken in that order),
 * and their `then`s are called in that order; the first that throws rolls
 * the transaction back and the others are not called.
 *
 * `settled`, when given, is a query of one boolean over the write's rows
 * (named `lead`) that is true when `then` would have nothing to do with
 * them. When every leading write of the transaction has one, the statement
 * may carry the transaction's COMMIT (see CommitWithLast), and no `then` is
 * called; where a condition fails, the statement raises
 * CHECKS_DUE_SQLSTATE, and the transaction is run again with the `then`s.
 */
export async function writeLeadingBeforeCommit<O>(
  manager: EntityManager,
  write: Compilable<O> & OperationNodeSource,
  then: (rows: O[]) => Promise<void>,
  settled?: HeldWrite,
): Promise<void> {
  if (!held.has(manager)) return then(await fetchAll(manager, write));
  const leads = leading.get(manager);
  const lead = { write, then: then as HeldLead['then'], settled };
  if (leads) leads.push(lead);
  else leading.set(manager, [lead]);
}

/** A held write its transaction sends last, whose rows it only records. */
interface HeldLast {
  write: HeldWrite;
  record(rows: Record<string, unknown>[]): void;
}

/** The one last write (writeLastBeforeCommit) each such transaction may hold. */
const lasts = new WeakMap<EntityManager, HeldLast>();

/**
 * A write after which its transaction sends nothing, and whose returned
 * rows it only records. In a transaction run by `sendWritesTogether` it is
 * held and sent as the transaction's last statement, after the other held
 * writes, carrying the COMMIT when it may (see CommitWithLast): the rows it
 * locks are freed in the round trip that writes them. `record` gets its
 * rows (keys in camelCase) once it has answered, when the transaction may
 * have committed: it must send nothing. Outside sendWritesTogether it is
 * sent at once. One per transaction.
 */
export async function writeLastBeforeCommit<O>(
  manager: EntityManager,
  write: Compilable<O> & OperationNodeSource,
  record: (rows: O[]) => void,
): Promise<void> {
  if (!held.has(manager)) return record(await fetchAll(manager, write));
  if (lasts.has(manager)) throw new Error('A transaction holds one last write at most.');
  lasts.set(manager, { write, record: record as HeldLast['record'] });
}

/**
 * Runs `work` in the transaction of `manager`, then sends the writes it held
 * (see writeBeforeCommit) as one statement: each becomes a data-modifying
 * `WITH` part of it (a SELECT part is read by the statement, so that it runs),
 * in one round trip instead of one each; a leading write
 * (writeLeadingBeforeCommit) goes first and its rows are handed on. Nothing
 * is sent if `work` fails. With `commit` allowed, the statement carries the
 * transaction's COMMIT, when there is a statement and its leading write (if
 * any) says how it is settled.
 */
export async function sendWritesTogether<T>(
  manager: EntityManager,
  work: () => Promise<T>,
  commit?: CommitWithLast,
): Promise<T> {
  if (held.has(manager)) return work();
  const writes: HeldWrite[] = [];
  held.set(manager, writes);
  try {
    const result = await work();
    held.delete(manager);
    const leads = leading.get(manager) ?? [];
    leading.delete(manager);
    const last = lasts.get(manager);
    lasts.delete(manager);
    if (last) {
      if (leads.length > 0) await handOn(leads, await sendLeading(manager, leads, writes));
      else if (writes.length > 0 && commit?.allowed()) {
        // The held writes, then the last with the COMMIT: one write, one round trip.
        await sendWithLast(manager, writes, last, commit);
        return result;
      } else await sendTogether(manager, writes);
      await sendLast(manager, last, commit);
      return result;
    }
    const withCommit = commit !== undefined && commit.allowed();
    if (leads.length > 0 && withCommit && leads.every((lead) => lead.settled)) {
      await sendLeading(manager, leads, writes, true);
      commit.committed = true;
    } else if (leads.length > 0) {
      await handOn(leads, await sendLeading(manager, leads, writes));
    } else if (withCommit && writes.length > 0) {
      await sendTogether(manager, writes, true);
      commit.committed = true;
    } else {
      await sendTogether(manager, writes);
    }
    return result;
  } finally {
    held.delete(manager);
    leading.delete(manager);
    lasts.delete(manager);
  }
}

/** The last write, with the COMMIT when the transaction allows it now; its rows recorded. */
async function sendLast(
  manager: EntityManager,
  last: HeldLast,
  commit: CommitWithLast | undefined,
): Promise<void> {
  if (commit === undefined || !commit.allowed()) {
    last.record(await fetchAll(manager, last.write as Compilable<Record<string, unknown>>));
    return;
  }
  const statement = last.write.compile();
  const rows = await runAndCommit(manager, statement.sql, statement.parameters);
  commit.committed = true;
  last.record(rows.map(toCamel));
}

/**
 * The held writes' statement and the last write, sent together with the
 * COMMIT: PostgreSQL runs the last after the held writes (it sees what they
 * wrote), and none of it commits when any fails.
 */
async function sendWithLast(
  manager: EntityManager,
  writes: HeldWrite[],
  last: HeldLast,
  commit: CommitWithLast,
): Promise<void> {
  const rows = await runAllAndCommit(manager, [...statementsOf(writes), last.write.compile()]);
  commit.committed = true;
  last.record(rows.map(toCamel));
}

/** What a held write is as built: a prepared query's run is a fragment of compiled text. */
function kindOf(write: HeldWrite): string {
  return write instanceof PreparedRun || write instanceof KeptPlan
    ? write.kind
    : write.toOperationNode().kind;
}

/** The WITH parts of held writes, and the reads that make their SELECT parts run. */
function partsOf(writes: HeldWrite[]) {
  // The builder numbers the parameters of every part in one statement.
  const parts = writes.map((write, i) => sql`${sql.raw(`w${i}`)} AS (${write})`);
  const selects = writes.flatMap((write, i) =>
    kindOf(write) === 'SelectQueryNode' ? [sql.raw(`(SELECT count(*) FROM w${i})`)] : [],
  );
  return { parts, selects };
}

/** Each leading write's rows to its `then`, in the order they were held. */
async function handOn(leads: HeldLead[], rows: Record<string, unknown>[][]): Promise<void> {
  for (const [i, lead] of leads.entries()) await lead.then(rows[i]);
}

/** The name of the i-th leading write's part: the first is `lead`, as its `settled` reads it. */
const leadName = (i: number) => (i === 0 ? 'lead' : `lead${i}`);

/** A later leading write's `settled`, reading that write's rows under the name `lead`. */
function settledOf(lead: HeldLead, i: number) {
  return i === 0
    ? sql`(${lead.settled})`
    : sql`(WITH lead AS (SELECT * FROM ${sql.raw(leadName(i))}) ${lead.settled})`;
}

/**
 * The leading writes and the held writes in one statement: each leading
 * write is read first, whole (its rows as one JSON array), in the order
 * held, so they run one after the other before the parts no read reaches,
 * which PostgreSQL runs once the statement's reads are done. `settled`:
 * the statement checks each leading write's condition instead, in the same
 * order, and carries the COMMIT (their rows are then not read).
 */
async function sendLeading(
  manager: EntityManager,
  leads: HeldLead[],
  writes: HeldWrite[],
  settled = false,
): Promise<Record<string, unknown>[][]> {
  if (leads.length === 1 && writes.length === 0 && !settled) {
    return [await fetchAll(manager, leads[0].write as Compilable<Record<string, unknown>>)];
  }
  const { parts, selects } = partsOf(writes);
  const names = leads.map((_, i) => sql.raw(leadName(i)));
  // Settled, the leads' rows are not read: the checks are what reach them.
  const reads = settled
    ? [...leads.map((lead, i) => sql`checks_before_commit(${settledOf(lead, i)})`), ...selects]
    : [...names.map((name) => sql`(SELECT json_agg(${name}) FROM ${name}) AS ${name}`), ...selects];
  const whole = compileRaw(
    sql`WITH ${sql.join(
      [...leads.map((lead, i) => sql`${names[i]} AS (${lead.write})`), ...parts],
      sql`, `,
    )} SELECT ${sql.join(reads, sql`, `)}`,
  );
  // Made of statements whose plans may be kept (the checks too, when read), the whole is one too.
  const kept =
    leads.every(
      (lead) => lead.write instanceof KeptPlan && (!settled || lead.settled instanceof KeptPlan),
    ) && writes.every((write) => write instanceof KeptPlan);
  const statement = kept ? markKept(whole) : whole;
  if (settled) {
    await runAndCommit(manager, statement.sql, statement.parameters);
    return [];
  }
  const row = await fetchOne<Record<string, Record<string, unknown>[] | null>>(manager, statement);
  return leads.map((_, i) => (row?.[leadName(i)] ?? []).map(toCamel));
}

/** A statement that is itself a WITH of writes, which PostgreSQL takes only as a whole statement. */
function writesInWith(statement: CompiledQuery): boolean {
  const root = statement.query as { with?: WithNode } | undefined;
  return (
    root?.with?.expressions.some((part) => part.expression.kind !== 'SelectQueryNode') ?? false
  );
}

/**
 * The statements of the held writes: one, each write a WITH part of it; a
 * write that has writes in a WITH of its own cannot be a part, and goes
 * as a statement of its own, before that one.
 */
function statementsOf(writes: HeldWrite[]): CompiledQuery[] {
  if (writes.length === 1) return [writes[0].compile()];
  const alone: CompiledQuery[] = [];
  const parted: HeldWrite[] = [];
  for (const write of writes) {
    const statement = write.compile();
    if (writesInWith(statement)) alone.push(statement);
    else parted.push(write);
  }
  if (parted.length === 0) return alone;
  if (parted.length === 1) return [...alone, parted[0].compile()];
  const { parts, selects } = partsOf(parted);
  const reads = selects.length ? sql.join(selects, sql`, `) : sql`1`;
  const together = compileRaw(sql`WITH ${sql.join(parts, sql`, `)} SELECT ${reads}`);
  // Made of statements whose plans may be kept, the whole is one too.
  const kept = parted.every((write) => write instanceof KeptPlan);
  return [...alone, kept ? markKept(together) : together];
}

async function sendTogether(
  manager: EntityManager,
  writes: HeldWrite[],
  withCommit = false,
): Promise<void> {
  if (writes.length === 0) return;
  const statements = statementsOf(writes);
  if (withCommit) await runAllAndCommit(manager, statements);
  else for (const statement of statements) await execute(manager, statement);
}
