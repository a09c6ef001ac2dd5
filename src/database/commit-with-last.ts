import { Query } from 'pg';
import { EntityManager, QueryFailedError } from 'typeorm';

/**
 * The last statement of a transaction and its COMMIT in one round trip.
 *
 * The pg driver sends one statement and waits for its answer before the
 * next, so a transaction's COMMIT costs a round trip of its own, and every
 * row the transaction locked stays locked until the answer of its last
 * statement has come back through a busy event loop and the COMMIT has gone
 * out. Here the COMMIT goes in the same write, behind the statement and
 * before the protocol's Sync: PostgreSQL commits as soon as the statement is
 * done, or, when the statement fails, skips the COMMIT (everything up to the
 * Sync is skipped after an error) and leaves the transaction failed, to be
 * rolled back as any failed transaction is.
 */
class StatementThenCommit extends Query {
  /** Called by pg's Query once the statement is parsed and bound: its Execute, then the COMMIT's. */
  _getRows(connection: PgConnection, rows: number | undefined): void {
    connection.execute({ portal: this.portal, rows });
    connection.parse({ text: 'COMMIT', name: '', types: [] });
    connection.bind({ portal: '', statement: '', values: [] });
    connection.execute({ portal: '', rows: undefined });
    connection.sync();
  }
}

/** The protocol writer of a pg client, as far as StatementThenCommit uses it. */
interface PgConnection {
  execute(options: { portal: string; rows: number | undefined }): void;
  parse(options: { text: string; name: string; types: unknown[] }): void;
  bind(options: { portal: string; statement: string; values: unknown[] }): void;
  sync(): void;
}

declare module 'pg' {
  interface Query {
    portal: string;
  }
}

/** The TypeORM query runner's state this file reads and sets (PostgresQueryRunner). */
interface RunnerState {
  connect(): Promise<{ query(query: Query): unknown }>;
  isTransactionActive: boolean;
  transactionDepth: number;
  /** Tells the data source's subscribers of the commit, as commitTransaction does. */
  broadcaster: {
    broadcast(event: 'BeforeTransactionCommit' | 'AfterTransactionCommit'): Promise<void>;
  };
}

/**
 * Runs `text` as the last statement of `manager`'s transaction and commits
 * it in the same round trip; answers the statement's rows as PostgreSQL
 * names their columns. On failure (of the statement or of the commit) the
 * error is thrown as TypeORM throws a failed query's, and the transaction
 * is left to its caller's rollback (a no-op once PostgreSQL has ended it).
 * The data source's subscribers are told of the commit as TypeORM tells
 * them of its own.
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
  const client = await runner.connect();
  await runner.broadcaster.broadcast('BeforeTransactionCommit');
  const results = await new Promise<PgResult | PgResult[]>((resolve, reject) => {
    client.query(
      new StatementThenCommit({
        text,
        values: [...parameters],
        queryMode: 'extended',
        callback: (error: Error | null, answer: PgResult | PgResult[]) =>
          error ? reject(new QueryFailedError(text, [...parameters], error)) : resolve(answer),
      } as ConstructorParameters<typeof Query>[0]),
    );
  });
  runner.isTransactionActive = false;
  runner.transactionDepth = 0;
  // As after TypeORM's own COMMIT: subscribers (the outbox's wake-up) hear of it.
  await runner.broadcaster.broadcast('AfterTransactionCommit');
  const first = Array.isArray(results) ? results[0] : results;
  return first?.rows ?? [];
}

interface PgResult {
  rows: Record<string, unknown>[];
}
