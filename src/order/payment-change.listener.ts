import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PaymentChanged, PaymentEvents, PaymentState } from '../payment';
import { OrderEventEntity } from './entities';
import { NotificationRepository } from '../notification';
import { OrderRepository } from './order.repository';
import { PublishOrderEvent } from './realtime/order-event-bus';

const NOTIFICATION_TITLE: Partial<Record<PaymentState, string>> = {
  paid: 'Payment received',
  overpaid: 'Paid more than once',
  failed: 'Payment failed',
  mismatch: 'Payment does not match the order',
  partially_refunded: 'Part of the payment refunded',
  refunded: 'Payment refunded',
};

/**
 * What an order makes of a change of its payment, in the transaction that
 * changed it: an entry of its history (field `payment`), the owner's
 * notification when the payment module says the owner is told, and an
 * `order.updated` announcement with change `payment` (the order stream and
 * outbound webhooks) when it is announced.
 */
@Injectable()
export class PaymentChangeListener implements OnModuleInit {
  constructor(
    private readonly payments: PaymentEvents,
    private readonly orders: OrderRepository,
    private readonly notifications: NotificationRepository,
  ) {}

  onModuleInit(): void {
    this.payments.on((manager, publish, event) => this.record(manager, publish, event));
  }

  async record(
    manager: EntityManager,
    publish: PublishOrderEvent,
    event: PaymentChanged,
  ): Promise<OrderEventEntity[]> {
    const { order, from, to } = event;
    const entries = await this.orders.insertEvents(manager, order.uuid, [
      {
        field: 'payment',
        fromValue: from,
        toValue: to,
        actorUuid: event.userUuid,
        actor: event.actor,
      },
    ]);
    if (event.notifyOwner) await this.notifyOwner(manager, event);
    if (event.announced) await publish('order.updated', order, ['payment']);
    return entries;
  }

  private async notifyOwner(manager: EntityManager, { order, to }: PaymentChanged): Promise<void> {
    const currency = order.currency ? ` ${order.currency}` : '';
    await this.notifications.insert(manager, {
      userUuid: order.ownerUuid,
      kind: 'order.payment_changed',
      title: `${NOTIFICATION_TITLE[to]}: order ${order.orderReference}`,
      body:
        to === 'mismatch'
          ? (order.paymentError ?? 'The provider reported another amount or currency.')
          : to === 'overpaid'
            ? `The guest paid ${order.amountPaid}${currency} through more than one checkout for an order of ${order.amount}${currency}; refund the difference.`
            : `Paid ${order.amountPaid}${currency}, refunded ${order.amountRefunded}${currency} of ${order.amount}${currency}.`,
      data: {
        order_uuid: order.uuid,
        order_reference: order.orderReference,
        business_uuid: order.businessUuid,
        payment_status: to,
        amount_paid: order.amountPaid,
        amount_refunded: order.amountRefunded,
        currency: order.currency,
      },
    });
  }
}
