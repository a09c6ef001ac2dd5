import { Query } from 'pg';
import { EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { QueryResult } from 'typeorm/query-runner/QueryResult';
import { isPlanKept } from './kept-plans';
import { statementName } from './named-statements';
import { PLAN_CACHE_MODE } from './pipelined-client';

/**
 * A transaction's BEGIN and COMMIT without round trips of their own.
 *
 * The pg driver sends one statement and waits for its answer before the
 * next, so BEGIN and COMMIT each cost a round trip (and a socket write, a
 * good share of the service's own work per request), and every row a
 * transaction locked stays locked until the answer of its last statement
 * has come back through a busy event loop and the COMMIT has gone out.
 * Here BEGIN goes in the same write as the transaction's first statement,
 * and COMMIT in the same write as its last (the held writes' statement, see
 * writes-before-commit.ts): each as an extended-protocol Parse, Bind and
 * Execute before the protocol's Sync. After an error PostgreSQL skips
 * everything up to the Sync, so a COMMIT behind a failed statement is never
 * run and the transaction rolls back as any failed transaction does.
 */
class PipelinedStatement extends Query {
  constructor(
    config: ConstructorParameters<typeof Query>[0],
    /**
     * What the statement carries: the transaction's BEGIN before it, its
     * COMMIT behind it, and around it the settings under which its plan is
     * kept (see kept-plans.ts).
     */
    readonly around: Around,
  ) {
    super(config);
  }

  /**
   * pg's Query writes Parse, Bind and Describe here; BEGIN, then the kept
   * plan's settings, go before them. A named statement not yet prepared on
   * this connection is parsed before those: pg records a named statement as
   * prepared at the first ParseComplete of its query, so that one must be
   * the statement's own (a Parse that fails is then never recorded).
   * Parsing runs nothing; the statement still runs inside the transaction,
   * and is planned at its Bind, under the settings sent before it.
   */
  override prepare(connection: PgConnection): void {
    if (this.around.begin || this.around.kept) {
      if (this.name && !this.hasBeenParsed(connection)) {
        connection.parse({ text: this.text, name: this.name, types: this.types ?? [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
    }
    if (this.around.begin) sendSimple(connection, 'BEGIN');
    if (this.around.kept && !this.around.keptBefore) {
      for (const text of KEEP_PLAN) sendSimple(connection, text);
    }
    super.prepare(connection);
  }

  /** pg's Query writes Execute and Sync here; the settings back, or COMMIT, go between them. */
  _getRows(connection: PgConnection, rows: number | undefined): void {
    connection.execute({ portal: this.portal, rows });
    // The COMMIT ends the settings with the transaction; a marked statement next keeps them.
    if (this.around.kept && !this.around.commit && !this.around.keptNext) {
      for (const text of PLAN_AT_EACH_RUN) sendSimple(connection, text);
    }
    if (this.around.commit) sendSimple(connection, 'COMMIT');
    connection.sync();
  }
}

/** What a pipelined statement carries (see PipelinedStatement). */
interface Around {
  begin: boolean;
  commit: boolean;
  kept?: boolean;
  /** The statement before it in the same write was marked too: the settings are in place. */
  keptBefore?: boolean;
  /** The statement after it in the same write is marked too: the settings stay. */
  keptNext?: boolean;
}

/**
 * The settings a statement whose plan is kept runs under. They are sent in its
 * write and set back after it (or after the last of the marked statements sent
 * beside it); a COMMIT ends them without setting them back.
 */
const KEEP_PLAN = [
  'SET LOCAL plan_cache_mode = force_generic_plan',
  'SET LOCAL enable_seqscan = off',
] as const;

/** The session's settings again, for the statements that follow it. */
const PLAN_AT_EACH_RUN = [
  `SET LOCAL plan_cache_mode = ${PLAN_CACHE_MODE}`,
  'SET LOCAL enable_seqscan = DEFAULT',
] as const;

/** A statement without parameters as Parse, Bind and Execute of the unnamed statement and portal. */
function sendSimple(connection: PgConnection, text: string): void {
  connection.parse({ text, name: '', types: [] });
  connection.bind({ portal: '', statement: '', values: [] });
  connection.execute({ portal: '', rows: undefined });
}

/** The protocol writer of a pg client, as far as PipelinedStatement uses it. */
interface PgConnection {
  execute(options: { portal: string; rows: number | undefined }): void;
  parse(options: { text: string; name: string; types: unknown[] }): void;
  bind(options: { portal: string; statement: string; values: unknown[] }): void;
  sync(): void;
  /** The named statements whose Parse is sent and not yet answered. */
  submittedNamedStatements: Record<string, string>;
}

declare module 'pg' {
  interface Query {
    portal: string;
    name?: string;
    text: string;
    types?: unknown[];
    prepare(connection: unknown): void;
    hasBeenParsed(connection: unknown): boolean;
  }
}

interface PgResult {
  command: string;
  rows: Record<string, unknown>[];
  rowCount: number | null;
}

/** The TypeORM query runner's state this file reads and sets (PostgresQueryRunner). */
interface RunnerState {
  connect(): Promise<{ query(query: Query): unknown }>;
  query(query: string, parameters?: unknown[], structured?: boolean): Promise<unknown>;
  isTransactionActive: boolean;
  transactionDepth: number;
  /** Tells the data source's subscribers of the commit, as commitTransaction does. */
  broadcaster: {
    broadcast(event: 'BeforeTransactionCommit' | 'AfterTransactionCommit'): Promise<void>;
    broadcast(event: 'BeforeQuery', query: string, parameters?: unknown[]): Promise<void>;
  };
}

/** The runners whose BEGIN is still to go with their first statement. */
const beginPending = new WeakSet<object>();

/**
 * Starts the transaction of `runner` as TypeORM's startTransaction does,
 * but holds its BEGIN for the first statement the transaction sends: that
 * statement carries it in the same write. A transaction that sends no
 * statement sends nothing at all, not even its COMMIT or ROLLBACK.
 *
 * TypeORM's query log and its AfterQuery event do not see the statements
 * this file sends itself (the one carrying the BEGIN, and a kept-plan
 * statement, which subscribers hear of as BeforeQuery only). Nothing in the
 * service listens for either, and the data source logs no queries.
 */
export async function startTransactionLazily(queryRunner: QueryRunner): Promise<void> {
  const runner = queryRunner as unknown as RunnerState;
  const send = runner.query.bind(runner);
  runner.query = async (query, parameters, structured) => {
    if (query === 'START TRANSACTION' && runner.transactionDepth === 0) {
      beginPending.add(runner);
      return undefined;
    }
    if (!beginPending.has(runner)) {
      if (!isPlanKept(query) || !runner.isTransactionActive) {
        return send(query, parameters, structured);
      }
      // As TypeORM's own query: its subscribers hear of it first, and it reaches the
      // connection after as many turns, so it leaves in the order it was issued.
      const client = await runner.connect();
      await runner.broadcaster.broadcast('BeforeQuery', query, parameters);
      // With the settings its plan is kept under, in the same write.
      const raw = await issue(client, query, parameters ?? [], { begin: false, commit: false });
      return asTypeormAnswers(raw, structured === true);
    }
    if (query === 'COMMIT' || query === 'ROLLBACK') {
      // Nothing was sent: there is no transaction on the connection to end.
      beginPending.delete(runner);
      return undefined;
    }
    // Extended protocol takes one statement per Parse: text of several goes after a BEGIN of its own.
    if (/;\s*\S/.test(query)) {
      beginPending.delete(runner);
      await send('BEGIN');
      return send(query, parameters, structured);
    }
    beginPending.delete(runner);
    const raw = await sendPipelined(runner, query, parameters ?? [], {
      begin: true,
      commit: false,
    });
    return asTypeormAnswers(raw, structured === true);
  };
  await queryRunner.startTransaction();
}

/** What TypeORM's PostgresQueryRunner.query answers for pg's result. */
function asTypeormAnswers(raw: PgResult, structured: boolean): unknown {
  const result = new QueryResult();
  result.records = raw.rows;
  if (raw.rowCount !== null) result.affected = raw.rowCount;
  result.raw =
    raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows;
  return structured ? result : result.raw;
}

async function sendPipelined(
  runner: RunnerState,
  text: string,
  parameters: readonly unknown[],
  around: Around,
): Promise<PgResult> {
  return issue(await runner.connect(), text, parameters, around);
}

/**
 * Writes one statement (with what it carries) on `client` at once, and
 * answers its result. It is always inside a transaction: a statement marked
 * by keepPlan carries its settings.
 */
function issue(
  client: { query(query: Query): unknown },
  text: string,
  parameters: readonly unknown[],
  { begin, commit, keptBefore = false, keptNext = false }: Around,
): Promise<PgResult> {
  const kept = isPlanKept(text);
  const around: Around = { begin, commit, kept, keptBefore: kept && keptBefore, keptNext };
  return new Promise<PgResult | PgResult[]>((resolve, reject) => {
    client.query(
      new PipelinedStatement(
        {
          text,
          values: [...parameters],
          name: statementName(text, parameters),
          queryMode: 'extended',
          callback: (error: Error | null, answer: PgResult | PgResult[]) =>
            error ? reject(new QueryFailedError(text, [...parameters], error)) : resolve(answer),
        } as ConstructorParameters<typeof Query>[0],
        around,
      ),
    );
  }).then((results) =>
    // BEGIN's result first when it was sent, then the settings', the statement's, and the rest.
    Array.isArray(results)
      ? results[(begin ? 1 : 0) + (kept && !around.keptBefore ? KEEP_PLAN.length : 0)]
      : results,
  );
}

/**
 * Runs `text` as the last statement of `manager`'s transaction and commits
 * it in the same round trip (with the held BEGIN too, when the transaction
 * sent nothing before); answers the statement's rows as PostgreSQL names
 * their columns. On failure (of the statement or of the commit) the error
 * is thrown as TypeORM throws a failed query's, and the transaction is left
 * to its caller's rollback (a no-op once PostgreSQL has ended it). The data
 * source's subscribers are told of the commit as TypeORM tells them of its
 * own.
 */
export async function runAndCommit(
  manager: EntityManager,
  text: string,
  parameters: readonly unknown[],
): Promise<Record<string, unknown>[]> {
  const runner = manager.queryRunner as unknown as RunnerState | undefined;
  if (!runner?.isTransactionActive || runner.transactionDepth !== 1) {
    throw new Error('runAndCommit needs the outermost transaction of its manager');
  }
  await runner.broadcaster.broadcast('BeforeTransactionCommit');
  const begin = beginPending.delete(runner);
  const result = await sendPipelined(runner, text, parameters, { begin, commit: true });
  runner.isTransactionActive = false;
  runner.transactionDepth = 0;
  // As after TypeORM's own COMMIT: subscribers (the outbox's wake-up) hear of it.
  await runner.broadcaster.broadcast('AfterTransactionCommit');
  return result.rows ?? [];
}

/**
 * Runs `statements` in order as the last statements of `manager`'s
 * transaction and commits it, all in one write and one round trip (with the
 * held BEGIN before the first when the transaction sent nothing before);
 * answers the last statement's rows. The connection's pipeline runs them
 * one after the other, each seeing what those before it wrote. When one
 * fails, PostgreSQL fails those behind it (the transaction is aborted) and
 * never runs the COMMIT; the first failure is thrown, once every statement
 * has answered, as runAndCommit throws it.
 */
export async function runAllAndCommit(
  manager: EntityManager,
  statements: ReadonlyArray<{ sql: string; parameters: readonly unknown[] }>,
): Promise<Record<string, unknown>[]> {
  if (statements.length === 1) {
    return runAndCommit(manager, statements[0].sql, statements[0].parameters);
  }
  const runner = manager.queryRunner as unknown as RunnerState | undefined;
  if (!runner?.isTransactionActive || runner.transactionDepth !== 1) {
    throw new Error('runAllAndCommit needs the outermost transaction of its manager');
  }
  await runner.broadcaster.broadcast('BeforeTransactionCommit');
  const begin = beginPending.delete(runner);
  const client = await runner.connect();
  // Marked statements side by side share one change of the settings (see kept-plans.ts).
  const kept = statements.map((statement) => isPlanKept(statement.sql));
  // Issued in one tick, in order: the client writes them in one write, and PostgreSQL runs them in turn.
  const answers = await Promise.allSettled(
    statements.map((statement, i) =>
      issue(client, statement.sql, statement.parameters, {
        begin: begin && i === 0,
        commit: i === statements.length - 1,
        keptBefore: i > 0 && kept[i - 1],
        keptNext: i + 1 < statements.length && kept[i + 1],
      }),
    ),
  );
  const failed = answers.find((answer) => answer.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  runner.isTransactionActive = false;
  runner.transactionDepth = 0;
  await runner.broadcaster.broadcast('AfterTransactionCommit');
  const last = answers.at(-1) as PromiseFulfilledResult<PgResult>;
  return last.value.rows ?? [];
}
