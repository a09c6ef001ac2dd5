import { ClientConfig } from 'pg';
import { NamingClient } from './named-statements';

/**
 * Every run of a named statement is planned for its values and the tables
 * as they stand. A plan PostgreSQL would otherwise keep from a statement's
 * sixth run is made once, for tables as they were then: a lookup planned
 * while a table held a few rows stays a sequential scan as the table grows
 * to thousands, until statistics are gathered again (never, where
 * autovacuum is off). Naming still saves the parsing and analysis of each
 * run, and the text on the wire.
 */
export const PLAN_CACHE_MODE = 'force_custom_plan';

/** The part of pg's client this file reads: the socket under its connection. */
interface Corkable {
  connection?: { stream?: { cork?(): void; uncork?(): void } };
}

/**
 * The pool's client: names the statements it sends again (NamingClient),
 * and sends the statements one transaction issues together in one socket
 * write, without waiting for the answer of one before sending the next.
 *
 * pg's own client waits for each statement's answer before it writes the
 * next, so two reads a transaction needs at the same point (the order
 * locked, and its payments) cost two round trips and two socket writes,
 * and a socket write is a good share of the service's own work per
 * request. Here the client runs in pg's pipeline mode (each statement is
 * written when it is issued, with its own Sync, and answered in turn) and
 * holds the socket's writes until the end of the current tick, so what a
 * `Promise.all` issues leaves in one write. A statement issued alone
 * leaves as before, in a write of its own.
 *
 * What pipelining changes is only when a statement is written, never the
 * order PostgreSQL runs statements in: they run one after the other, as
 * issued. A statement that fails inside a transaction fails those behind
 * it as any failed statement does (the transaction is aborted); outside a
 * transaction each statement stands alone (each has its own Sync).
 */
export class PipelinedClient extends NamingClient {
  private corked = false;

  constructor(config?: string | ClientConfig) {
    super(
      typeof config === 'string'
        ? { connectionString: config, pipeline: true }
        : { ...config, pipeline: true },
    );
  }

  /**
   * Connects, then sets how the connection plans (PLAN_CACHE_MODE), as a
   * setting of the session: the embedded database takes no startup options.
   *
   * The pool listens for a client's `error` event only once it has the
   * client, and pg emits a lost connection as that event as well as the
   * failure of the statement in flight. While the setting is sent, a
   * listener here takes the event (the statement's failure reports the
   * loss), so a connection cut at that moment fails the connect instead of
   * the process. A client whose setting failed is ended; the caller is told.
   */
  override connect(...args: unknown[]): never {
    const callback = args[0] as
      ((error: Error | null, client?: PipelinedClient) => void) | undefined;
    const reportedByTheStatement = (): void => undefined;
    const ready = (super.connect() as Promise<unknown>).then(async () => {
      this.on('error', reportedByTheStatement);
      try {
        await (super.query as (text: string) => Promise<unknown>)(
          `SET plan_cache_mode = ${PLAN_CACHE_MODE}`,
        );
      } catch (error) {
        await this.end().catch(() => undefined);
        throw error;
      }
      this.removeListener('error', reportedByTheStatement);
    });
    if (!callback) return ready.then(() => this) as never;
    ready.then(
      () => callback(null, this),
      (error: Error) => callback(error),
    );
    return undefined as never;
  }

  override query(...args: unknown[]): never {
    this.holdWritesForThisTick();
    return (super.query as (...rest: unknown[]) => never)(...args);
  }

  /** Corks the socket until the tick ends: statements issued meanwhile share its write. */
  private holdWritesForThisTick(): void {
    if (this.corked) return;
    const stream = (this as unknown as Corkable).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    this.corked = true;
    stream.cork();
    process.nextTick(() => {
      this.corked = false;
      stream.uncork!();
    });
  }
}

/**
 * Waits for all of `work` (statements a transaction issues at the same
 * point, so that they leave in one write) and answers their results in
 * order; when any fails, throws the first failure once all have settled,
 * so nothing is still sending on the transaction's connection when its
 * caller rolls it back.
 */
export async function together<T extends readonly unknown[]>(
  ...work: { [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return settled.map(
    (outcome) => (outcome as PromiseFulfilledResult<unknown>).value,
  ) as unknown as T;
}
