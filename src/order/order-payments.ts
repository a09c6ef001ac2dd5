import type { EntityManager } from 'typeorm';
import type { OrderEntity, OrderEventEntity } from './entities';
import type { OrderActor } from './entities/order-event.entity';
import type { PaymentProcessor } from './domain/payment-methods';
import type { PublishOrderEvent } from './realtime/order-event-bus';
import type { PaymentCollect } from '../payment';

export interface PaymentPlanInput {
  processor: PaymentProcessor;
  /** The menu's extra_data (currency, checkout providers). */
  menu: Record<string, unknown>;
  /** The callback_url of the order body, if any. */
  callbackUrl: string | undefined;
}

/** What the order stores about its payment at placement. */
export interface PaymentPlan {
  collect: PaymentCollect;
  instructions: Record<string, unknown> | null;
  callbackUrl: string | null;
  /** The menu's ISO 4217 code, else its ticker as stored (null when none). */
  currency: string | null;
  /** Checkouts reserved with the order: 1 for an online payment, whose first reference is taken at placement. */
  attempts: number;
}

/** The owner's manual payment status: what they may set by hand for offline money. */
export type ManualPaymentStatus = 'paid' | 'refunded';

/**
 * What the order module asks of the payment module: how the new order's
 * payment is collected (inside the placement transaction, refusing what
 * cannot be paid), after the order has committed, opening the checkout of an
 * online payment, and the owner's manual payment status. Provided by the
 * payment module, the only writer of an order's payment.
 */
export abstract class OrderPayments {
  abstract plan(input: PaymentPlanInput): PaymentPlan;

  /**
   * Whether the provider decides this order's payment (so the owner may not
   * set it by hand): it was placed for online collection and its provider
   * still collects online.
   */
  abstract collectedOnline(order: OrderEntity): boolean;

  /**
   * Opens the provider's first checkout (its reference reserved at
   * placement) for a committed order and stores the outcome. Never throws for the provider's failure: the order stands and
   * its payment carries the error. Null when nothing was to be opened.
   */
  abstract openCheckout(
    order: OrderEntity,
    businessExtra: Record<string, unknown>,
  ): Promise<{ order: OrderEntity; events: OrderEventEntity[] } | null>;

  /**
   * Records the payment status the owner or their team set by hand (offline
   * money: paid in full, or given back) through the payment's transitions,
   * in the caller's transaction, which holds the order's row lock: the
   * payment's columns, its history entry, its metric. The person who set it
   * is not notified of their own act. The change is announced through
   * `publish`. Answers the order as stored.
   */
  abstract recordManualPayment(
    manager: EntityManager,
    publish: PublishOrderEvent,
    order: OrderEntity,
    status: ManualPaymentStatus,
    by: { actor: OrderActor; userUuid: string },
  ): Promise<OrderEntity>;
}
