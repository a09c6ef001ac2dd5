import { Injectable } from '@nestjs/common';
import { Transaction } from '../database/event-bus';
import { canMoveStatus, OrderStatus } from './domain/order-status';
import { OrderEntity } from './entities';
import { OrderActor } from './entities/order-event.entity';
import { NewOrderEvent, OrderChanges, OrderRepository } from './order.repository';
import { OrderPricer } from './order-pricer';
import { OrderSlotsRepository } from './order-slots.repository';
import { OrderChangeKind, publisher } from './realtime/order-event-bus';

/** Who moves an order: a member by role (with their uuid), the guest, or the service. */
export interface MoveBy {
  actor: OrderActor;
  userUuid: string | null;
  /** Why, when the service moves it (kept with the history entry). */
  reason?: string;
}

/** What a move writes beside the status: other columns, and history entries after the status's. */
export interface MoveExtras {
  changes?: Omit<OrderChanges, 'status'>;
  history?: NewOrderEvent[];
  /** More kinds of change to announce with the status (a note, a ready time). */
  kinds?: OrderChangeKind[];
}

/**
 * The one way an order's status changes, whoever changes it (the business's
 * update, the guest's cancel, the kitchen, the service at a deadline): in the
 * caller's transaction, which holds the order's row lock, the move is
 * checked against the state machine, the row and its history written, what
 * the order held given back when it ends (its discount redemption and its
 * slot place), and `order.changed` published with the status it left, so
 * every module that reacts to a status (tickets, stock, messages, webhooks,
 * the stream) hears of every move the same way.
 */
@Injectable()
export class OrderStatusMoves {
  constructor(
    private readonly orders: OrderRepository,
    private readonly pricer: OrderPricer,
    private readonly slots: OrderSlotsRepository,
  ) {}

  /** Whether the state machine allows it; callers refuse with their own words when it does not. */
  allowed(order: OrderEntity, to: OrderStatus): boolean {
    return canMoveStatus(order.status, to);
  }

  /** Moves a locked order to `to`; answers the order as stored. */
  async move(
    tx: Transaction,
    order: OrderEntity,
    to: OrderStatus,
    by: MoveBy,
    extras: MoveExtras = {},
  ): Promise<OrderEntity> {
    if (!canMoveStatus(order.status, to)) {
      throw new Error(`An order that is ${order.status} cannot become ${to}`);
    }
    // The change and its history entries in one statement.
    const updated = await this.orders.updateOrder(
      tx.manager,
      order.uuid,
      { ...extras.changes, status: to },
      [
        {
          field: 'status',
          fromValue: order.status,
          toValue: to,
          actorUuid: by.userUuid,
          actor: by.actor,
          reason: by.reason ?? null,
        },
        ...(extras.history ?? []),
      ],
    );
    await this.pricer.giveBackWhenEnded(tx.manager, updated);
    await this.slots.releaseOnStatus(tx.manager, order, to);
    await publisher(tx)(
      'order.updated',
      updated,
      ['status', ...(extras.kinds ?? [])],
      order.status,
    );
    return updated;
  }
}
