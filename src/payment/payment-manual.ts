import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Money } from '../common/money';
import { Transaction } from '../database/event-bus';
import { ManualPaymentStatus, sumPaid } from './domain/payment-state';
import { paymentsTotal } from './payment-metrics';
import { refundable } from './payment-refunds';
import { ChangedBy, OrderSnapshot, PaymentTransitions, ShareSnapshot } from './payment-transitions';
import { PaymentRefundRepository } from './payment-refund.repository';
import { PaymentRepository, PaymentRow } from './payment.repository';

/**
 * Money the business collects itself (cash, a transfer to its own account):
 * the owner or a manager records it by hand as paid (what is left to pay, as
 * one payment) or as given back (every paid payment refunded in full).
 */
@Injectable()
export class PaymentManual {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly refundRows: PaymentRefundRepository,
    private readonly transitions: PaymentTransitions,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether a provider collects this order's money (it was placed to be paid
   * by card online), so that nobody may set it by hand.
   */
  async collectedOnline(tx: Transaction, orderUuid: string): Promise<boolean> {
    const [first] = await this.payments.ofOrders(tx.manager, [orderUuid]);
    return first !== undefined && first.channel === 'checkout';
  }

  /**
   * Records the status the owner or their team set, in the caller's
   * transaction (which holds the order's payments lock). The person who set
   * it is not told of their own act.
   */
  async record(
    tx: Transaction,
    order: OrderSnapshot,
    status: ManualPaymentStatus,
    by: ChangedBy & { userUuid: string },
  ): Promise<void> {
    await this.transitions.lock(tx, order.uuid);
    const quiet: ChangedBy = { ...by, notifyOwner: false };
    const payments = await this.payments.ofOrders(tx.manager, [order.uuid]);
    if (status === 'paid') return this.recordPaid(tx, order, payments, quiet);
    const refunds = await this.refundRows.refundsOfOrders(tx.manager, [order.uuid]);
    paymentsTotal.inc({ result: 'refunded' });
    const open = refundable(payments, refunds).filter((entry) => entry.left.gt(0));
    for (const { payment, left } of open) {
      await this.refundRows.insertRefund(tx.manager, {
        orderUuid: order.uuid,
        paymentUuid: payment.uuid,
        provider: payment.method,
        amount: left.toFixed(2),
        reason: 'Recorded as refunded by hand',
        status: 'succeeded',
        providerRefundId: null,
        requestedBy: by.userUuid,
      });
      await this.transitions.announce(tx, payment, quiet);
    }
    if (open.length > 0) return;
    // Nothing came in: the money will not be collected; the attempt closes as given back.
    const latest = payments.at(-1);
    if (!latest) return;
    await this.refundRows.insertRefund(tx.manager, {
      orderUuid: order.uuid,
      paymentUuid: latest.uuid,
      provider: latest.method,
      amount: '0.00',
      reason: 'Recorded as refunded by hand',
      status: 'succeeded',
      providerRefundId: null,
      requestedBy: by.userUuid,
    });
    await this.transitions.change(
      tx,
      latest,
      latest.status === 'pending' ? { status: 'abandoned', nextCheckAt: null } : {},
      quiet,
    );
  }

  /**
   * Money the team collected for a share of a tab (cash, a transfer to the
   * business's account), with the tip given with it: one paid payment of
   * the share, in the caller's transaction, under the share's lock. The
   * caller has checked the share is unpaid (it holds the tab's lock).
   */
  async recordShare(
    tx: Transaction,
    share: ShareSnapshot,
    method: 'cash' | 'bank_transfer',
    tip: string,
    by: ChangedBy & { userUuid: string },
  ): Promise<PaymentRow> {
    await this.transitions.lock(tx, share.uuid);
    return this.transitions.create(
      tx,
      {
        orderUuid: null,
        shareUuid: share.uuid,
        businessUuid: share.businessUuid,
        method,
        channel: 'manual',
        currency: share.currency,
        status: 'paid',
        amount: share.amount,
        // What came in: the share and the tip given with it.
        amountPaid: new Money(share.amount).plus(tip).toFixed(2),
        tipAmount: tip,
        paidAt: this.clock.now(),
        recordedBy: by.userUuid,
        nextCheckAt: null,
      },
      { ...by, notifyOwner: false },
    );
  }

  /**
   * A tab closed with money due: the open (pending) payments of these
   * shares are abandoned, each under its share's lock, in the caller's
   * transaction. A charge paid later still counts (its money is real).
   */
  async abandonShares(
    tx: Transaction,
    shareUuids: readonly string[],
    by: ChangedBy & { userUuid: string },
  ): Promise<void> {
    for (const shareUuid of shareUuids) {
      await this.transitions.lock(tx, shareUuid);
      for (const payment of await this.payments.ofShares(tx.manager, [shareUuid])) {
        if (payment.status !== 'pending') continue;
        await this.transitions.change(
          tx,
          payment,
          { status: 'abandoned', nextAction: null, nextCheckAt: null },
          { ...by, notifyOwner: false },
        );
      }
    }
  }

  /** What is left to pay, recorded as paid: on the open manual payment, or as a new one. */
  private async recordPaid(
    tx: Transaction,
    order: OrderSnapshot,
    payments: readonly PaymentRow[],
    by: ChangedBy & { userUuid: string | null },
  ): Promise<void> {
    const outstanding = new Money(order.amount).minus(sumPaid(payments));
    const amount = outstanding.gt(0) ? outstanding : new Money(0);
    const paid = {
      status: 'paid' as const,
      amount: amount.toFixed(2),
      amountPaid: amount.toFixed(2),
      paidAt: this.clock.now(),
      recordedBy: by.userUuid,
      nextCheckAt: null,
    };
    const open = [...payments]
      .reverse()
      .find((payment) => payment.channel === 'manual' && payment.status === 'pending');
    if (open) {
      await this.transitions.change(tx, open, paid, by);
      return;
    }
    await this.transitions.create(
      tx,
      {
        orderUuid: order.uuid,
        businessUuid: order.businessUuid,
        method: (payments[0]?.method ?? order.method) as PaymentRow['method'],
        channel: 'manual',
        currency: order.currency,
        ...paid,
      },
      by,
    );
  }
}
