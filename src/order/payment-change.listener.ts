import { Injectable } from '@nestjs/common';
import { Money } from '../common/money';
import { EventBus, Transaction } from '../database/event-bus';
import { together } from '../database/pipelined-client';
import { checksDue } from '../database/writes-before-commit';
import { NotificationRepository } from '../notification';
import {
  derivePaymentState,
  isOpen,
  NOTIFIED_STATES,
  PaymentChanged,
  PaymentRow,
  PaymentService,
  PaymentsOfOrder,
  PaymentState,
  paymentStatusOf,
} from '../payment';
import { OrderEntity, OrderEventEntity } from './entities';
import {
  NewOrderEvent,
  OrderPaymentModel,
  OrderRepository,
  WrittenOrder,
} from './order.repository';
import { publisher } from './realtime/order-event-bus';

const NOTIFICATION_TITLE: Partial<Record<PaymentState, string>> = {
  partially_paid: 'Part of the order paid',
  paid: 'Payment received',
  overpaid: 'Paid more than the order costs',
  failed: 'Payment failed',
  mismatch: 'Payment does not match the order',
  partially_refunded: 'Part of the payment refunded',
  refunded: 'Payment refunded',
};

/** The refunds that count in what was given back: accepted by the provider, or recorded. */
const COUNTED = ['succeeded', 'processed'];

/** What an order became through a change of its payments, in the transaction of the change. */
export interface HeardPaymentChange {
  /** The order as it stood before (as locked by the change). */
  before: OrderEntity;
  /** The order after it. */
  order: OrderEntity;
  /** The history entries the change added, oldest first. */
  events: OrderEventEntity[];
  /** The order's payments and refunds as they stand after it. */
  payments: PaymentsOfOrder;
}

/** The read model of an order's payments: the state they add up to, and the money in and out. */
export function paymentModelOf(
  order: OrderEntity,
  { payments, refunds }: PaymentsOfOrder,
): OrderPaymentModel {
  const counted = refunds.filter((refund) => COUNTED.includes(refund.status));
  const given = counted.reduce((sum, refund) => sum.plus(refund.amount), new Money(0));
  const paid = payments.reduce(
    (sum, payment) => (payment.status === 'paid' ? sum.plus(payment.amountPaid) : sum),
    new Money(0),
  );
  const state = derivePaymentState(
    payments.map((payment) => ({ ...payment, open: isOpen(payment) })),
    { amount: given, count: counted.length },
    new Money(order.amount),
  );
  return {
    paymentState: state,
    paymentStatus: paymentStatusOf(state),
    amountPaid: paid.toFixed(2),
    amountRefunded: Money.min(paid, given).toFixed(2),
  };
}

/** Whether the read model is the order's as it stands. */
function unchanged(order: OrderEntity, model: OrderPaymentModel): boolean {
  return (
    model.paymentState === order.paymentState &&
    new Money(model.amountPaid).eq(order.amountPaid) &&
    new Money(model.amountRefunded).eq(order.amountRefunded) &&
    model.paymentStatus === order.paymentStatus
  );
}

/**
 * What an order makes of a change of its payments, in the transaction that
 * changed them (it holds the order's payments lock): its read model (state
 * and amounts) follows, and when the state changes or money comes in, an
 * entry of its history (field `payment`); when money came in, went back or
 * failed, the owner's notification (unless they made the change themselves)
 * and an `order.changed` with change `payment` (the order stream and
 * outbound webhooks). Opening a payment is only recorded.
 */
@Injectable()
export class PaymentChangeListener {
  /** Per transaction, what its last change of an order's payments made of the order. */
  private readonly heard = new WeakMap<Transaction, HeardPaymentChange>();
  /** Orders as their placement wrote them, by the payment whose change is expected next (see whilePlaced). */
  private readonly placed = new Map<string, OrderEntity>();

  constructor(
    bus: EventBus,
    private readonly orders: OrderRepository,
    private readonly payments: PaymentService,
    private readonly notifications: NotificationRepository,
  ) {
    bus.on('payment.changed', (event, tx) => this.record(event, tx));
  }

  /**
   * Runs `change`, which changes `payment`, the first and only payment of
   * `order`, just after the placement committed them both, with the order
   * known as placed. The first transaction that changes the payment then
   * follows the change without reading the order and its payments: its
   * write of the order's read model fails (SQLSTATE SV001) unless the order
   * is still as placed, and the transaction is run again, reading them.
   * Every change of an order's payments that moves its read model writes
   * the order, and every write of an order moves its `updated_at`. A
   * payment added meanwhile that moves nothing (a charge opened by a guest
   * who replayed the placement, still waiting for them) stays out of what
   * this change answers, which then names its checkout as the latest attempt.
   */
  async whilePlaced<T>(
    order: OrderEntity,
    payment: PaymentRow,
    change: () => Promise<T>,
  ): Promise<T> {
    this.placed.set(payment.uuid, order);
    try {
      return await change();
    } finally {
      this.placed.delete(payment.uuid);
    }
  }

  async record(event: PaymentChanged, tx: Transaction): Promise<void> {
    // A share of a tab is the tab's to hear of (see tabs/tab-payments.ts).
    if (!event.orderUuid) return;
    const placed = this.placed.get(event.payment.uuid);
    if (placed?.uuid === event.orderUuid) {
      // Its transaction's first run only: a run again reads the order.
      this.placed.delete(event.payment.uuid);
      const all: PaymentsOfOrder = { payments: [event.payment], refunds: [] };
      // A change that leaves the read model as it was writes nothing to check: read the order.
      if (!unchanged(placed, paymentModelOf(placed, all))) {
        return this.follow(tx, event, placed, all, true, (written) =>
          this.heard.set(tx, { before: placed, ...written, payments: all }),
        );
      }
    }
    // A change not sent yet has not taken the lock the reads must follow.
    if (event.held) throw checksDue('the order is read after a held payment change');
    // Issued together, the two reads leave in one write (the pool's client
    // pipelines them); the payments are read after the lock, as sent.
    const [order, payments] = await together(
      this.orders.findForUpdate(tx.manager, event.orderUuid),
      this.payments.ofOrders([event.orderUuid], tx.manager),
    );
    if (!order) return;
    const all = payments.get(order.uuid)!;
    await this.follow(tx, event, order, all, false, (written) =>
      this.heard.set(tx, { before: order, ...written, payments: all }),
    );
  }

  /**
   * What the order as it stood before the last payment change in `tx` became
   * through it: the order, the history entries it gained, and its payments
   * as they stand (undefined when no payment of an order changed in `tx`).
   * Lets the one who made the change answer with the order without reading
   * it again.
   */
  heardIn(tx: Transaction): HeardPaymentChange | undefined {
    return this.heard.get(tx);
  }

  /**
   * The read model, history, notification and announcement of one change;
   * `heard` gets the order as written and the history entries it gained.
   * After the transaction's last change (`last`), a write that nothing
   * follows goes as its last statement, with its COMMIT. `asPlaced`: the
   * order was not read but is known as placed, and the write checks it.
   */
  private async follow(
    tx: Transaction,
    event: PaymentChanged,
    order: OrderEntity,
    all: PaymentsOfOrder,
    asPlaced: boolean,
    heard: (written: WrittenOrder) => void,
  ): Promise<void> {
    const model = paymentModelOf(order, all);
    const from = order.paymentState;
    const to = model.paymentState;
    const moneyIn = new Money(model.amountPaid).gt(order.amountPaid);
    if (unchanged(order, model)) return heard({ order, events: [] });
    // The read model and its history entry (when the state moves or money comes in) in one statement.
    const events: NewOrderEvent[] =
      to === from && !moneyIn
        ? []
        : [
            {
              field: 'payment',
              fromValue: from,
              toValue: to,
              actorUuid: event.userUuid,
              actor: event.actor,
            },
          ];
    const announced = events.length > 0 && NOTIFIED_STATES.includes(to);
    // A held change goes with the order's last write; anything sent before it would come before the lock.
    if (event.held && !(event.last && !announced)) {
      throw checksDue('the order is written before a held payment change');
    }
    if (event.last && !announced) {
      return this.orders.updatePaymentModelLast(
        tx.manager,
        order.uuid,
        model,
        events,
        (written) => heard(written!),
        asPlaced,
      );
    }
    const written = (await this.orders.updatePaymentModel(
      tx.manager,
      order.uuid,
      model,
      events,
      asPlaced,
    ))!;
    heard(written);
    if (!announced) return;
    if (event.notifyOwner) await this.notifyOwner(tx, written.order, to);
    await publisher(tx)('order.updated', written.order, ['payment']);
  }

  private async notifyOwner(tx: Transaction, order: OrderEntity, to: PaymentState): Promise<void> {
    const currency = order.currency ? ` ${order.currency}` : '';
    const latestError = to === 'mismatch' || to === 'failed';
    await this.notifications.insert(tx.manager, {
      userUuid: order.ownerUuid,
      kind: 'order.payment_changed',
      title: `${NOTIFICATION_TITLE[to]}: order ${order.orderReference}`,
      body: latestError
        ? `The ${to === 'mismatch' ? 'provider reported another currency' : 'payment failed'}; the order of ${order.amount}${currency} is still to be paid.`
        : to === 'overpaid'
          ? `The guest paid ${order.amountPaid}${currency} for an order of ${order.amount}${currency}; refund the difference.`
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
