import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { PgNotifications } from '../database/pg-notifications';
import { isOutboxLane, OutboxLaneName } from './outbox-lanes';

/** The PostgreSQL channel on which a commit says "new rows are due in this lane". */
export const OUTBOX_CHANNEL = 'outbox_due';

type Listener = (lane: OutboxLaneName) => void;

/**
 * Wakes the outbox lanes when a transaction commits new due rows, so they
 * leave within moments instead of at the next poll. On a PostgreSQL server
 * the writing transaction sends a NOTIFY, which PostgreSQL delivers to every
 * process at commit and drops on rollback; on the embedded database (one
 * process) the wake-up is given in this process once the transaction has
 * committed. Either way, one wake-up per lane per transaction, however many
 * rows it wrote. A missed wake-up (the listening connection being
 * re-established) costs a poll interval, nothing more.
 */
@Injectable()
export class OutboxSignal
  implements OnModuleInit, OnModuleDestroy, EntitySubscriberInterface<unknown>
{
  private readonly logger = new Logger('Outbox');
  private readonly listeners = new Set<Listener>();
  /** The lanes each open transaction has announced. */
  private readonly announced = new WeakMap<QueryRunner, Set<OutboxLaneName>>();

  constructor(
    private readonly notifications: PgNotifications,
    private readonly dataSource: DataSource,
  ) {
    // Told of every commit and rollback of this DataSource (TypeORM subscriber).
    dataSource.subscribers.push(this);
  }

  /** Listening before the app answers, so no row committed after start-up waits for the poll. */
  async onModuleInit(): Promise<void> {
    await this.notifications.subscribe(OUTBOX_CHANNEL, (payload) => {
      if (isOutboxLane(payload)) this.emit(payload);
      else this.logger.warn(`Ignoring a wake-up for an unknown outbox lane "${payload}"`);
    });
  }

  onModuleDestroy(): void {
    const at = this.dataSource.subscribers.indexOf(this);
    if (at >= 0) this.dataSource.subscribers.splice(at, 1);
    this.listeners.clear();
  }

  /** Calls `listener` with the lane of each wake-up; answers the unsubscribe function. */
  onDue(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Through the manager that wrote a due row of `lane`: the lane wakes once
   * that row is committed (at once when the manager is in no transaction).
   */
  async announce(manager: EntityManager, lane: OutboxLaneName): Promise<void> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) {
      if (this.notifications.enabled) await this.notifications.publish(OUTBOX_CHANNEL, lane);
      else this.emit(lane);
      return;
    }
    let lanes = this.announced.get(runner);
    if (lanes?.has(lane)) return;
    if (!lanes) this.announced.set(runner, (lanes = new Set()));
    lanes.add(lane);
    // Held (with the transaction's other late writes) until just before COMMIT.
    if (this.notifications.enabled) await this.notifications.publish(OUTBOX_CHANNEL, lane, manager);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    // A savepoint released inside the transaction commits nothing yet.
    if (event.queryRunner.isTransactionActive) return;
    const lanes = this.announced.get(event.queryRunner);
    if (!lanes) return;
    this.announced.delete(event.queryRunner);
    if (this.notifications.enabled) return; // PostgreSQL delivers the NOTIFY.
    for (const lane of lanes) this.emit(lane);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    // A savepoint rolled back on a server took its NOTIFY with it: the next row announces again.
    // On the embedded database the lanes stay marked; at worst a lane wakes for nothing.
    if (!event.queryRunner.isTransactionActive || this.notifications.enabled) {
      this.announced.delete(event.queryRunner);
    }
  }

  private emit(lane: OutboxLaneName): void {
    for (const listener of this.listeners) {
      try {
        listener(lane);
      } catch (error) {
        this.logger.warn(`An outbox wake-up listener failed: ${String(error)}`);
      }
    }
  }
}
