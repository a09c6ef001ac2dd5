import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OrderEntity, OrderEventEntity } from '../order/entities';
import { OrderActor } from '../order/entities/order-event.entity';
import { NotificationRepository } from '../order/notification.repository';
import { OrderRepository } from '../order/order.repository';
import { PublishOrderEvent } from '../order/realtime/order-event-bus';
import { mirroredPaymentStatus, NOTIFIED_STATES, PaymentState } from './domain/payment-state';
import { PaymentColumns } from './payment-columns';
import { paymentsTotal } from './payment-metrics';
import { PaymentRepository } from './payment.repository';

/** What a transition writes: the payment's columns other than the mirrored `payment_status`. */
export type PaymentChanges = Omit<PaymentColumns, 'paymentStatus'>;

const NOTIFICATION_TITLE: Partial<Record<PaymentState, string>> = {
  paid: 'Payment received',
  overpaid: 'Paid more than once',
  failed: 'Payment failed',
  mismatch: 'Payment does not match the order',
  partially_refunded: 'Part of the payment refunded',
  refunded: 'Payment refunded',
};

/**
 * Writes a change of an order's payment, in the caller's transaction (which
 * holds the order's row lock): the new columns, `payment_status` mirrored,
 * a history entry (field `payment`) when the state changes, and — for
 * paid, failed, mismatch and refunds — the owner's notification and an
 * `order.updated` event with change `payment` (the stream and outbound
 * webhooks). Opening a checkout (unpaid → pending) is only recorded.
 */
@Injectable()
export class PaymentTransitions {
  constructor(
    private readonly orders: OrderRepository,
    private readonly payments: PaymentRepository,
    private readonly notifications: NotificationRepository,
  ) {}

  async apply(
    manager: EntityManager,
    publish: PublishOrderEvent,
    order: OrderEntity,
    changes: PaymentChanges,
    by: { actor: OrderActor; userUuid: string | null; always?: boolean; notify?: boolean },
  ): Promise<{ order: OrderEntity; events: OrderEventEntity[] }> {
    const to = changes.paymentState ?? order.paymentState;
    const from = order.paymentState;
    const updated = await this.payments.updatePayment(manager, order.uuid, {
      ...changes,
      paymentStatus: mirroredPaymentStatus(to),
    });
    // `always`: money moved without a change of state (a third charge of an
    // overpaid order), which the history and the owner must still hear about.
    if (to === from && !by.always) return { order: updated, events: [] };
    const events = await this.orders.insertEvents(manager, order.uuid, [
      { field: 'payment', fromValue: from, toValue: to, actorUuid: by.userUuid, actor: by.actor },
    ]);
    if (NOTIFIED_STATES.includes(to)) {
      paymentsTotal.inc({ result: to });
      // `notify: false`: the owner or their team set it by hand; they are not
      // told what they did themselves.
      if (by.notify !== false) await this.notifyOwner(manager, updated, to);
      await publish('order.updated', updated, ['payment']);
    }
    return { order: updated, events };
  }

  private async notifyOwner(
    manager: EntityManager,
    updated: OrderEntity,
    to: PaymentState,
  ): Promise<void> {
    {
      const currency = updated.currency ? ` ${updated.currency}` : '';
      await this.notifications.insert(manager, {
        userUuid: updated.ownerUuid,
        kind: 'order.payment_changed',
        title: `${NOTIFICATION_TITLE[to]}: order ${updated.orderReference}`,
        body:
          to === 'mismatch'
            ? (updated.paymentError ?? 'The provider reported another amount or currency.')
            : to === 'overpaid'
              ? `The guest paid ${updated.amountPaid}${currency} through more than one checkout for an order of ${updated.amount}${currency}; refund the difference.`
              : `Paid ${updated.amountPaid}${currency}, refunded ${updated.amountRefunded}${currency} of ${updated.amount}${currency}.`,
        data: {
          order_uuid: updated.uuid,
          order_reference: updated.orderReference,
          business_uuid: updated.businessUuid,
          payment_status: to,
          amount_paid: updated.amountPaid,
          amount_refunded: updated.amountRefunded,
          currency: updated.currency,
        },
      });
    }
  }
}
