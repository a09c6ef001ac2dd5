import { ClientConfig } from 'pg';
import { NamingClient } from './named-statements';

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
