import { Injectable } from '@nestjs/common';
import { Transaction } from '../database/event-bus';
import { lockKeyOf } from './domain/paid-for';
import { PaymentActor } from './payment-events';
import { paymentsTotal } from './payment-metrics';
import { NewPayment, PaymentChanges, PaymentRepository, PaymentRow } from './payment.repository';

/** Who made a change, and whether the owner hears of it. */
export interface ChangedBy {
  actor: PaymentActor;
  userUuid: string | null;
  /** False when the owner or their team made the change themselves. */
  notifyOwner?: boolean;
}

/** What the order a payment belongs to is, as far as the payment module needs it. */
export interface OrderSnapshot {
  uuid: string;
  businessUuid: string;
  orderReference: string;
  /** What the order costs (its total). */
  amount: string;
  currency: string | null;
  email: string;
  /** The order's payment_processor. */
  method: string;
}

/** What a share of a tab a payment pays is, as far as the payment module needs it. */
export interface ShareSnapshot {
  uuid: string;
  businessUuid: string;
  /** What the share pays. */
  amount: string;
  currency: string | null;
}

/** A share charged from the tab page: who pays (an email for the provider), the tip, a reference base. */
export interface ShareChargeSnapshot extends ShareSnapshot {
  email: string;
  /** The tip given with the share, decimal text. */
  tip: string;
  /** The base of the share's payment references (`<base>-<n>`). */
  reference: string;
}

/** What an announced change says of its transaction (see PaymentChanged's `last` and `held`). */
interface Announced {
  last?: boolean;
  held?: boolean;
}

/**
 * The only way a payment changes: written in the caller's transaction, which
 * holds the order's payments lock, then published as `payment.changed` in
 * that transaction, so the order's read model moves with it.
 */
@Injectable()
export class PaymentTransitions {
  constructor(private readonly payments: PaymentRepository) {}

  /** Takes the order's payments lock: first, before any row of the order or its payments. */
  lock(tx: Transaction, orderUuid: string): Promise<void> {
    return this.payments.lockOrderPayments(tx.manager, orderUuid);
  }

  async create(tx: Transaction, payment: NewPayment, by: ChangedBy): Promise<PaymentRow> {
    const created = await this.payments.insert(tx.manager, payment);
    await this.announce(tx, created, by);
    return created;
  }

  async change(
    tx: Transaction,
    payment: PaymentRow,
    set: PaymentChanges,
    by: ChangedBy,
  ): Promise<PaymentRow> {
    const changed = await this.payments.update(tx.manager, payment.uuid, set);
    await this.changed(tx, payment, changed, by);
    return changed;
  }

  /**
   * `change` in a transaction that has not taken the lock yet: the lock of
   * what the payment pays is taken in the same statement, and the change is
   * made only if the payment is still pending then (undefined, and nothing
   * announced, when it is not: what settled it meanwhile stands). With
   * `replacing`, the order's other open checkouts are abandoned with it: a
   * newer checkout replaces them. With `last`, the caller's transaction
   * does nothing after it (see PaymentChanged.last).
   */
  async changePending(
    tx: Transaction,
    payment: PaymentRow,
    set: PaymentChanges,
    by: ChangedBy,
    { replacing = false, last = false }: { replacing?: boolean; last?: boolean } = {},
  ): Promise<PaymentRow | undefined> {
    const changed = await this.payments.updatePending(
      tx.manager,
      { uuid: payment.uuid, lockKey: lockKeyOf(payment) },
      set,
      replacing && payment.orderUuid ? { orderUuid: payment.orderUuid } : undefined,
    );
    if (changed) await this.changed(tx, { ...payment, status: 'pending' }, changed, by, { last });
    return changed;
  }

  /**
   * `changePending` with `replacing`, for a transaction that holds its
   * writes for the commit and reads nothing of the order or its payments:
   * the change is held (see PaymentRepository.replacePendingBeforeCommit),
   * and announced at once with the row it makes, which the listeners write
   * from. Where the payment is no longer pending when the change is sent,
   * the transaction fails with SQLSTATE SV001, rolls back and is run again
   * (then through `changePending`). Answers the row as changed.
   */
  async changePendingHeld(
    tx: Transaction,
    payment: PaymentRow,
    set: PaymentChanges,
    by: ChangedBy,
    { last = false }: { last?: boolean } = {},
  ): Promise<PaymentRow> {
    if (!payment.orderUuid) throw new Error('A held change replaces checkouts of an order.');
    await this.payments.replacePendingBeforeCommit(
      tx.manager,
      { uuid: payment.uuid, lockKey: lockKeyOf(payment) },
      set,
      { orderUuid: payment.orderUuid },
    );
    const before: PaymentRow = { ...payment, status: 'pending' };
    // The change's own time is the database's; nothing reads a payment's updated_at from an event.
    const changed: PaymentRow = { ...before, ...set, updatedAt: new Date() };
    await this.changed(tx, before, changed, by, { last, held: true });
    return changed;
  }

  private async changed(
    tx: Transaction,
    before: PaymentRow,
    changed: PaymentRow,
    by: ChangedBy,
    how: Announced = {},
  ): Promise<void> {
    if (changed.status !== before.status && changed.status !== 'pending') {
      paymentsTotal.inc({ result: changed.failure === 'mismatch' ? 'mismatch' : changed.status });
    }
    await this.announce(tx, changed, by, how);
  }

  /** A change not to the payment row itself (a refund of it) that its order must hear of. */
  async announce(
    tx: Transaction,
    payment: PaymentRow,
    by: ChangedBy,
    { last = false, held = false }: Announced = {},
  ): Promise<void> {
    await tx.emit('payment.changed', {
      orderUuid: payment.orderUuid,
      shareUuid: payment.shareUuid,
      payment,
      actor: by.actor,
      userUuid: by.userUuid,
      notifyOwner: by.notifyOwner !== false,
      last,
      ...(held ? { held } : {}),
    });
  }
}
