import type { PaymentEntity } from './entities';

/** Who changed a payment: a member of the business by role, the guest, the provider or the service. */
export type PaymentActor = 'owner' | 'manager' | 'staff' | 'guest' | 'provider' | 'system';

/**
 * A payment of an order was opened, paid, failed, abandoned or (partly)
 * refunded. Published by the payment module inside the transaction that made
 * the change, which holds the order's payments lock; the order module keeps
 * its read model of the order's payments (state, amounts, history, the
 * owner's notification) in that same transaction, so no answer ever shows a
 * payment and its order disagreeing. What leaves the service (the stream,
 * webhooks, mails) leaves after the commit.
 */
export interface PaymentChanged {
  /** The order the payment pays; null for a payment of a tab's share. */
  orderUuid: string | null;
  /** The tab's share the payment pays; null for an order's. */
  shareUuid: string | null;
  /** The payment as stored after the change (as it will be stored, when `held`). */
  payment: PaymentEntity;
  actor: PaymentActor;
  /** The member who acted; null for the guest, the provider and the service. */
  userUuid: string | null;
  /**
   * Whether the owner is told of what this brings (false when the owner or
   * their team made the change themselves).
   */
  notifyOwner: boolean;
  /**
   * True when the change is the last thing its transaction does: nothing
   * in it reads or changes the order or its payments afterwards. What the
   * order writes of it may then go as the transaction's last statement,
   * with its COMMIT.
   */
  last?: boolean;
  /**
   * True when the change is held for the commit and not sent yet (its
   * statement takes the order's payments lock when it goes, with the
   * transaction's last writes). A listener must then neither read nor lock
   * the order or its payments: that would take them before the lock. One
   * that needs to read instead fails the transaction with checksDue(), and
   * it is run again with the change sent first.
   */
  held?: boolean;
}

declare module '../database/event-bus' {
  interface AppEvents {
    'payment.changed': PaymentChanged;
  }
}
