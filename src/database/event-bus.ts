import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { startTransactionLazily } from './transaction-round-trips';
import { CommitWithLast, isChecksDue, sendWritesTogether } from './writes-before-commit';

/**
 * The service's in-process events: name → payload. The kernel declares none;
 * each module adds the events it publishes by declaration merging, next to
 * the code that emits them:
 *
 *   declare module '../database/event-bus' {
 *     interface AppEvents { 'order.changed': OrderChanged }
 *   }
 *
 * so emitting and handling are typed, and a module handles another's events
 * without importing it: the two meet in this map.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppEvents {}

export type AppEventName = keyof AppEvents;

/** A transaction run by the event bus: its manager, and the events it publishes. */
export interface Transaction {
  readonly manager: EntityManager;
  /**
   * Publishes an event of this transaction: its in-transaction handlers run
   * now, with this transaction (what they write commits or rolls back with
   * it); its committed handlers run once the transaction has committed, never
   * for a rollback.
   */
  emit<K extends AppEventName>(name: K, payload: AppEvents[K]): Promise<void>;
  /** Runs `effect` once the transaction has committed (not on rollback). */
  afterCommit(effect: () => void | Promise<void>): void;
  /**
   * Runs `step` in the transaction once its work is done and its held
   * writes are sent, just before the commit (steps in the order they were
   * asked for; a failure rolls the whole transaction back). For a statement
   * that takes a lock held until the commit: sent last, its lock is held as
   * briefly as it can be. A write a step holds is sent at once.
   */
  beforeCommit(step: () => Promise<void>): void;
}

export type InTransactionHandler<K extends AppEventName> = (
  payload: AppEvents[K],
  tx: Transaction,
) => Promise<void>;

export type CommittedHandler<K extends AppEventName> = (
  payload: AppEvents[K],
) => void | Promise<void>;

/**
 * One way to publish and handle in-process events, and the transactions
 * they belong to. A handler that must write with the change (a history
 * entry, an outbox row, a ticket) runs in the transaction; one that reacts
 * to what has happened (a metric, a local fan-out) runs after the commit.
 * In-transaction handlers of one event run in the order they were
 * registered; an error in one fails the transaction. An error in a
 * committed handler is logged: the change it reacts to stands.
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger('Events');
  private readonly inTransaction = new Map<AppEventName, InTransactionHandler<never>[]>();
  private readonly committed = new Map<AppEventName, CommittedHandler<never>[]>();

  constructor(private readonly dataSource: DataSource) {}

  /** Handles `name` inside the transaction that publishes it. */
  on<K extends AppEventName>(name: K, handler: InTransactionHandler<K>): void {
    const list = this.inTransaction.get(name) ?? [];
    list.push(handler as InTransactionHandler<never>);
    this.inTransaction.set(name, list);
  }

  /** Handles `name` once the transaction that published it has committed. */
  onCommitted<K extends AppEventName>(name: K, handler: CommittedHandler<K>): void {
    const list = this.committed.get(name) ?? [];
    list.push(handler as CommittedHandler<never>);
    this.committed.set(name, list);
  }

  /**
   * Runs `work` in one transaction. Once it is done the writes it held for
   * the commit (writeBeforeCommit) leave in one statement, then the steps
   * asked for with beforeCommit run, then it commits; after the commit the
   * effects and committed handlers run in the order they were asked for.
   * Answers what `work` answers.
   *
   * The BEGIN goes in the same round trip as the first statement, and,
   * when no step is asked for, the COMMIT in the same round trip as the
   * held writes' statement: the rows the transaction locked are freed
   * as soon as PostgreSQL is done with it. Where a leading write's SQL check
   * finds work for its `then` (writeLeadingBeforeCommit), that statement
   * fails, the transaction rolls back, and `work` runs once more in a
   * transaction that commits on its own; `work` must be safe to run again
   * (what it changes outside the transaction it changes idempotently).
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    try {
      return await this.attempt(work, true);
    } catch (error) {
      if (!isChecksDue(error)) throw error;
      return this.attempt(work, false);
    }
  }

  private async attempt<T>(
    work: (tx: Transaction) => Promise<T>,
    commitWithLast: boolean,
  ): Promise<T> {
    const effects: Array<() => void | Promise<void>> = [];
    const steps: Array<() => Promise<void>> = [];
    const commit: CommitWithLast = {
      allowed: () => commitWithLast && steps.length === 0,
      committed: false,
    };
    const runner = this.dataSource.createQueryRunner();
    let result: T;
    try {
      // Its BEGIN goes with its first statement.
      await startTransactionLazily(runner);
      const manager = runner.manager;
      result = await sendWritesTogether(
        manager,
        () => work(this.open(manager, effects, steps)),
        commit,
      );
      // After the held writes; a step may ask for another: each runs once, in order.
      for (let i = 0; i < steps.length; i++) await steps[i]();
      if (!commit.committed) await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) {
        await runner.rollbackTransaction().catch(() => undefined);
      }
      throw error;
    } finally {
      await runner.release();
    }
    for (const effect of effects) {
      try {
        await effect();
      } catch (error) {
        this.logger.error(`An after-commit handler failed: ${String(error)}`);
      }
    }
    return result;
  }

  private open(
    manager: EntityManager,
    effects: Array<() => void | Promise<void>>,
    steps: Array<() => Promise<void>>,
  ): Transaction {
    const tx: Transaction = {
      manager,
      emit: async (name, payload) => {
        for (const handler of this.inTransaction.get(name) ?? []) {
          await (handler as InTransactionHandler<typeof name>)(payload, tx);
        }
        for (const handler of this.committed.get(name) ?? []) {
          effects.push(() => (handler as CommittedHandler<typeof name>)(payload));
        }
      },
      afterCommit: (effect) => {
        effects.push(effect);
      },
      beforeCommit: (step) => {
        steps.push(step);
      },
    };
    return tx;
  }
}
