import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { OrderActor, OrderEntity, OrderEventEntity, PublishOrderEvent } from '../order';
import type { PaymentState } from './domain/payment-state';

/**
 * An order's payment changed state (or money moved without a change of
 * state, such as a further charge of an overpaid order). Published by the
 * payment module inside the transaction that made the change, which holds
 * the order's row lock.
 */
export interface PaymentChanged {
  type: 'payment.changed';
  /** The order as stored after the change. */
  order: OrderEntity;
  from: PaymentState;
  to: PaymentState;
  actor: OrderActor;
  /** The acting user; null for the provider and the system. */
  userUuid: string | null;
  /**
   * Money came in, went back or failed (paid, overpaid, failed, mismatch,
   * refunds): the order's followers (its stream, outbound webhooks) hear of
   * it. False for opening a checkout, which is only recorded.
   */
  announced: boolean;
  /** The owner is notified: announced, and not set by hand by the owner or their team. */
  notifyOwner: boolean;
}

export type PaymentEvent = PaymentChanged;

/**
 * A reaction to a payment event, run in the changing transaction with its
 * manager (so what it writes commits or rolls back with the change) and the
 * transaction's order announcements (published after commit). Answers the
 * order history entries it wrote, if any.
 */
export type PaymentEventListener = (
  manager: EntityManager,
  publish: PublishOrderEvent,
  event: PaymentEvent,
) => Promise<readonly OrderEventEntity[] | void>;

/** The payment module's events, for the modules that react to payments. */
@Injectable()
export class PaymentEvents {
  private readonly listeners: PaymentEventListener[] = [];

  on(listener: PaymentEventListener): void {
    this.listeners.push(listener);
  }

  /** Runs every listener in turn; the history entries they wrote, in order. */
  async publish(
    manager: EntityManager,
    publish: PublishOrderEvent,
    event: PaymentEvent,
  ): Promise<OrderEventEntity[]> {
    const written: OrderEventEntity[] = [];
    for (const listener of this.listeners) {
      const entries = await listener(manager, publish, event);
      if (entries) written.push(...entries);
    }
    return written;
  }
}
