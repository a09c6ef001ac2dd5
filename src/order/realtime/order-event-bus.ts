import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EventBus, Transaction } from '../../database/event-bus';
import { PgNotifications } from '../../database/pg-notifications';
import type { OrderStatus } from '../domain/order-status';
import { OrderResponseDto, toOrderSummary } from '../dto/order-response.dto';
import { OrderEntity } from '../entities';
import { CHANNEL_OF, OrderStreamEvent, OrderStreamEventType } from './order-stream-event';
import { OrderStreamHub } from './order-stream.hub';

/** What about an order changed: its creation, its status, its payment, or the owner's note. */
export type OrderChangeKind = 'created' | 'status' | 'payment' | 'note' | 'ready_time';

/**
 * An order was placed or changed, published inside the transaction that
 * made the change. Handlers that write with it (outbound webhooks' outbox
 * rows, the stream's NOTIFY) run in that transaction.
 */
export interface OrderChanged {
  type: OrderStreamEventType;
  /** The order as stored after the change. */
  order: OrderEntity;
  changes: readonly OrderChangeKind[];
  /** For a change of status, the status it left; undefined otherwise. */
  previousStatus?: OrderStatus;
  /**
   * The order as its owner reads it, when the publisher holds it whole: a
   * new order's placement, whose first payment is written only with the
   * transaction's last writes and so cannot be read back before then.
   * Listeners that send the owner's view use it rather than reading the
   * order again.
   */
  view?: OrderResponseDto;
}

/**
 * An order of this business is about to be inserted, in this transaction:
 * emitted just before the placement's insert. A listener that will read
 * something of the business when the new order is announced (its
 * `order.changed`) issues that read here without waiting for it, so the
 * read leaves in the same write to the database as the order's insert
 * instead of in a round trip of its own after it. Listeners must not wait
 * for anything here: the insert is issued once they return.
 */
export interface OrderPlacing {
  ownerUuid: string;
  businessUuid: string;
}

declare module '../../database/event-bus' {
  interface AppEvents {
    'order.changed': OrderChanged;
    'order.placing': OrderPlacing;
  }
}

/**
 * Announces an order change; it reaches the streams only if the transaction
 * commits. `changes` says what changed (default: `created` for
 * `order.created`, nothing more for `order.updated`).
 */
export type PublishOrderEvent = (
  type: OrderStreamEventType,
  order: OrderEntity,
  changes?: readonly OrderChangeKind[],
  previousStatus?: OrderStatus,
) => Promise<void>;

/**
 * Runs an order write in one transaction of the event bus and publishes
 * `order.changed` in it. The order stream hears of it after commit only: on
 * a PostgreSQL server the event is a NOTIFY issued in the transaction
 * (PostgreSQL holds it until commit and reaches every process); on the
 * embedded database (one process) it is handed to this process's hub once
 * the transaction has committed.
 */
@Injectable()
export class OrderEventBus {
  constructor(
    private readonly bus: EventBus,
    private readonly notifications: PgNotifications,
    private readonly hub: OrderStreamHub,
  ) {
    bus.on('order.changed', (event, tx) => this.toStreams(event, tx));
  }

  async transaction<T>(
    work: (manager: EntityManager, publish: PublishOrderEvent, tx: Transaction) => Promise<T>,
  ): Promise<T> {
    return this.bus.transaction((tx) => work(tx.manager, publisher(tx), tx));
  }

  private async toStreams({ type, order }: OrderChanged, tx: Transaction): Promise<void> {
    const event: OrderStreamEvent = {
      id: randomUUID(),
      type,
      ownerUuid: order.ownerUuid,
      order: toOrderSummary(order),
      tabUuid: order.tabUuid ?? null,
    };
    if (this.notifications.enabled) {
      await this.notifications.publish(CHANNEL_OF[type], JSON.stringify(event), tx.manager);
    } else {
      tx.afterCommit(() => this.hub.deliver(event));
    }
  }
}

/** Announces a new order, with the owner's view of it as its placement built it. */
export function publishCreated(
  tx: Transaction,
  order: OrderEntity,
  view: OrderResponseDto,
): Promise<void> {
  return tx.emit('order.changed', { type: 'order.created', order, changes: ['created'], view });
}

/** `publish` for a transaction: emits `order.changed` in it. */
export function publisher(tx: Transaction): PublishOrderEvent {
  return (type, order, changes, previousStatus) =>
    tx.emit('order.changed', {
      type,
      order,
      changes: changes ?? (type === 'order.created' ? ['created'] : []),
      previousStatus,
    });
}
