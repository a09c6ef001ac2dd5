import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OrderActor, OrderEntity, OrderEventEntity, PublishOrderEvent } from '../order';
import { mirroredPaymentStatus, NOTIFIED_STATES } from './domain/payment-state';
import { PaymentColumns } from './payment-columns';
import { PaymentEvents } from './payment-events';
import { paymentsTotal } from './payment-metrics';
import { PaymentRepository } from './payment.repository';

/** What a transition writes: the payment's columns other than the mirrored `payment_status`. */
export type PaymentChanges = Omit<PaymentColumns, 'paymentStatus'>;

/**
 * Writes a change of an order's payment, in the caller's transaction (which
 * holds the order's row lock): the new columns, `payment_status` mirrored,
 * and — when the state changes — a `payment.changed` event, which the order
 * module turns into a history entry (field `payment`), the owner's
 * notification and an `order.updated` announcement with change `payment`
 * (the stream and outbound webhooks) for paid, failed, mismatch and refunds.
 * Opening a checkout (unpaid → pending) is only recorded.
 */
@Injectable()
export class PaymentTransitions {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly events: PaymentEvents,
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
    const announced = NOTIFIED_STATES.includes(to);
    const events = await this.events.publish(manager, publish, {
      type: 'payment.changed',
      order: updated,
      from,
      to,
      actor: by.actor,
      userUuid: by.userUuid,
      announced,
      // `notify: false`: the owner or their team set it by hand; they are not
      // told what they did themselves.
      notifyOwner: announced && by.notify !== false,
    });
    if (announced) paymentsTotal.inc({ result: to });
    return { order: updated, events };
  }
}
