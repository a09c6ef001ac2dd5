import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PgNotifications } from '../../database/pg-notifications';
import { toOrderSummary } from '../dto/order-response.dto';
import { OrderEntity } from '../entities';
import { CHANNEL_OF, OrderStreamEvent, OrderStreamEventType } from './order-stream-event';
import { OrderStreamHub } from './order-stream.hub';

/** Announces an order change; it reaches the streams only if the transaction commits. */
export type PublishOrderEvent = (type: OrderStreamEventType, order: OrderEntity) => Promise<void>;

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

  async transaction<T>(
    work: (manager: EntityManager, publish: PublishOrderEvent) => Promise<T>,
  ): Promise<T> {
    const afterCommit: OrderStreamEvent[] = [];
    const result = await this.dataSource.transaction(async (manager) =>
      work(manager, async (type, order) => {
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
    );
    for (const event of afterCommit) this.hub.deliver(event);
    return result;
  }
}
