import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PgNotifications } from '../../database/pg-notifications';
import { sendWritesTogether } from '../../database/writes-before-commit';
import { toOrderSummary } from '../dto/order-response.dto';
import { OrderEntity } from '../entities';
import { CHANNEL_OF, OrderStreamEvent, OrderStreamEventType } from './order-stream-event';
import { OrderStreamHub } from './order-stream.hub';

/** What about an order changed: its creation, its status, its payment, or the owner's note. */
export type OrderChangeKind = 'created' | 'status' | 'payment' | 'note' | 'ready_time';

/**
 * Announces an order change; it reaches the streams only if the transaction
 * commits. `changes` says what changed (default: `created` for
 * `order.created`, nothing more for `order.updated`).
 */
export type PublishOrderEvent = (
  type: OrderStreamEventType,
  order: OrderEntity,
  changes?: readonly OrderChangeKind[],
) => Promise<void>;

/**
 * Runs inside the transaction that changes the order, with its manager, so
 * whatever it writes (an outbox row, say) commits or rolls back with the change.
 */
export type OrderChangeListener = (
  manager: EntityManager,
  order: OrderEntity,
  changes: readonly OrderChangeKind[],
) => Promise<void>;

/**
 * Runs an order write in one transaction and publishes its stream events
 * after commit only. On a PostgreSQL server the event is a NOTIFY issued in
 * the transaction (PostgreSQL holds it until commit and reaches every
 * process); on the embedded database (one process) it is queued and handed to
 * this process's hub once the transaction has committed.
 */
@Injectable()
export class OrderEventBus {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: PgNotifications,
    private readonly hub: OrderStreamHub,
  ) {}

  private readonly listeners: OrderChangeListener[] = [];

  /** Another module's reaction to order changes, run in the changing transaction. */
  onChange(listener: OrderChangeListener): void {
    this.listeners.push(listener);
  }

  async transaction<T>(
    work: (manager: EntityManager, publish: PublishOrderEvent) => Promise<T>,
  ): Promise<T> {
    const afterCommit: OrderStreamEvent[] = [];
    const result = await this.dataSource.transaction((manager) =>
      sendWritesTogether(manager, () =>
        work(manager, async (type, order, changes) => {
          const kinds = changes ?? (type === 'order.created' ? ['created' as const] : []);
          for (const listener of this.listeners) await listener(manager, order, kinds);
          const event: OrderStreamEvent = {
            id: randomUUID(),
            type,
            ownerUuid: order.ownerUuid,
            order: toOrderSummary(order),
          };
          if (this.notifications.enabled) {
            await this.notifications.publish(CHANNEL_OF[type], JSON.stringify(event), manager);
          } else {
            afterCommit.push(event);
          }
        }),
      ),
    );
    for (const event of afterCommit) this.hub.deliver(event);
    return result;
  }
}
