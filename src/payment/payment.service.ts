import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { ManualPaymentStatus } from './domain/payment-state';
import { CreatePaymentDto } from './dto/create-payment.dto';
import { isOpen, PaymentsOfOrder } from './dto/payment-response.dto';
import { PaymentCharges } from './payment-charges';
import {
  CheckoutContext,
  PaymentCheckouts,
  PaymentPlan,
  PaymentPlanInput,
} from './payment-checkouts';
import { PaymentConfirmations } from './payment-confirmations';
import { PaymentManual } from './payment-manual';
import { PaymentRefunds, refundable, RefundRequest, RefundResult } from './payment-refunds';
import {
  ChangedBy,
  OrderSnapshot,
  ShareChargeSnapshot,
  ShareSnapshot,
} from './payment-transitions';
import { PaymentRefundRepository } from './payment-refund.repository';
import { PaymentRepository, PaymentRow } from './payment.repository';
import { PaymentProviders } from './providers/payment-providers';
import { PaymentTransitions } from './payment-transitions';

/**
 * The payment module's front door: what the rest of the service asks of
 * payments. Callers hand in a snapshot of the order (uuid, business,
 * reference, total, currency, the guest's email) and hear back through the
 * `payment.changed` event; nothing here knows the order module.
 */
@Injectable()
export class PaymentService {
  constructor(
    private readonly checkouts: PaymentCheckouts,
    private readonly charges: PaymentCharges,
    private readonly confirmations: PaymentConfirmations,
    private readonly refunds: PaymentRefunds,
    private readonly manual: PaymentManual,
    private readonly payments: PaymentRepository,
    private readonly refundRows: PaymentRefundRepository,
    private readonly providers: PaymentProviders,
    private readonly transitions: PaymentTransitions,
  ) {}

  /** How a new order's payment is collected; refuses a currency or callback_url it cannot take. */
  plan(input: PaymentPlanInput): PaymentPlan {
    return this.checkouts.plan(input);
  }

  /**
   * The order's first payment, written in the placement's transaction (with
   * `readInTransaction` false, held until its commit: see PaymentCheckouts.start).
   */
  start(
    tx: Transaction,
    order: OrderSnapshot,
    plan: PaymentPlan,
    readInTransaction: boolean,
  ): Promise<PaymentRow> {
    return this.checkouts.start(tx, order, plan, readInTransaction);
  }

  /**
   * Opens the checkout reserved at placement, once the order has committed;
   * `then` runs in the transaction that records the outcome, and its answer is answered.
   */
  openCheckout<T = void>(
    order: OrderSnapshot,
    payment: PaymentRow,
    context: CheckoutContext,
    then?: (tx: Transaction) => T,
    options?: { readsNothing?: boolean },
  ): Promise<T | undefined> {
    return this.checkouts.open(order, payment, context, then, options);
  }

  /** A new card checkout for an order that is not paid. */
  openAnotherCheckout(order: OrderSnapshot, context: CheckoutContext): Promise<void> {
    return this.checkouts.openAnother(order, context);
  }

  /** A charge by USSD, mobile money or bank transfer, from the order page. */
  createCharge(
    order: OrderSnapshot,
    body: CreatePaymentDto,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    return this.charges.create(order, body, context);
  }

  submitOtp(order: OrderSnapshot, paymentUuid: string, otp: string): Promise<PaymentRow> {
    return this.charges.submitOtp(order, paymentUuid, otp);
  }

  /**
   * Asks the provider about the order's latest online payment and applies
   * the answer as its webhook would be applied (for a callback page when
   * the webhook is late).
   */
  async verify(order: OrderSnapshot): Promise<void> {
    const payments = await this.payments.ofOrders(this.payments.manager, [order.uuid]);
    const online = payments.filter((payment) => payment.channel !== 'manual');
    const provider = this.providers.online(online[0]?.method ?? order.method);
    if (!provider || online.length === 0) {
      throw ApiError.unprocessable(
        `The order is paid by ${order.method}, which the provider does not confirm.`,
        [{ field: 'payment_processor', message: 'only online payments can be verified' }],
      );
    }
    const latest = [...online]
      .reverse()
      .find((payment) => payment.status !== 'pending' || isOpen(payment));
    if (!latest?.reference) {
      throw ApiError.unprocessable('No checkout has been opened for this order yet.', [
        { field: 'payment', message: 'open a checkout first' },
      ]);
    }
    const answer =
      latest.channel === 'checkout'
        ? await provider.verify(latest.reference)
        : await provider.checkCharge(latest.reference);
    if (!answer.ok) {
      throw ApiError.unprocessable(answer.error, [{ field: 'payment', message: answer.error }]);
    }
    if ('charge' in answer) {
      await this.confirmations.applyReport(provider, answer.charge);
    } else if (answer.state.kind === 'paid') {
      await this.confirmations.applyReport(provider, answer.state.charge);
    } else if (answer.state.kind !== 'pending') {
      await this.charges.record(order.uuid, latest.uuid, answer);
    }
  }

  /** Refunds the order's payments, the one paid last first. */
  refund(order: OrderSnapshot, request: RefundRequest): Promise<RefundResult> {
    return this.refunds.refund(order, request);
  }

  /** Records the payment status the business set by hand, in the caller's transaction. */
  recordManual(
    tx: Transaction,
    order: OrderSnapshot,
    status: ManualPaymentStatus,
    by: ChangedBy & { userUuid: string },
  ): Promise<void> {
    return this.manual.record(tx, order, status, by);
  }

  /**
   * Closes what is still open for an order that ends without its guest
   * paying: open checkouts become abandoned, pending charges fail, each
   * announced as a payment change. In the caller's transaction, which holds
   * the order's lock (see lock).
   */
  async abandonOpen(tx: Transaction, orderUuid: string, by: ChangedBy): Promise<void> {
    const payments = await this.payments.ofOrders(tx.manager, [orderUuid]);
    for (const payment of payments.filter((p) => p.status === 'pending')) {
      await this.transitions.change(
        tx,
        payment,
        payment.channel === 'checkout'
          ? { status: 'abandoned', nextCheckAt: null }
          : {
              status: 'failed',
              failure: 'expired',
              error: 'The order was closed before the payment was completed.',
              nextAction: null,
              nextCheckAt: null,
            },
        by,
      );
    }
  }

  /** Money the team collected for a share of a tab, recorded as one paid payment of it. */
  recordSharePayment(
    tx: Transaction,
    share: ShareSnapshot,
    method: 'cash' | 'bank_transfer',
    tip: string,
    by: ChangedBy & { userUuid: string },
  ): Promise<PaymentRow> {
    return this.manual.recordShare(tx, share, method, tip, by);
  }

  /** A charge for a share of a tab, from the tab page (409 for a share paid or with a charge open). */
  createShareCharge(
    share: ShareChargeSnapshot,
    body: CreatePaymentDto,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    return this.charges.createForShare(share, body, context);
  }

  /** Abandons the open payments of these shares (their tab closed with money due). */
  abandonSharePayments(
    tx: Transaction,
    shareUuids: readonly string[],
    by: ChangedBy & { userUuid: string },
  ): Promise<void> {
    return this.manual.abandonShares(tx, shareUuids, by);
  }

  /** A card checkout for a share of a tab (409 for a share paid or with a payment open). */
  openShareCheckout(
    share: ShareChargeSnapshot,
    callbackUrl: string | undefined,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    return this.checkouts.openForShare(share, callbackUrl, context);
  }

  /** The payments of these shares of tabs, oldest first (read on `manager`). */
  ofShares(
    shareUuids: readonly string[],
    manager: EntityManager = this.payments.manager,
  ): Promise<PaymentRow[]> {
    return this.payments.ofShares(manager, shareUuids);
  }

  /** Whether a provider collects the order's money, so nobody may set it by hand. */
  collectedOnline(tx: Transaction, orderUuid: string): Promise<boolean> {
    return this.manual.collectedOnline(tx, orderUuid);
  }

  /**
   * Whether money came in for the order through a provider and is not all
   * given back: only the business can return it (a refund).
   */
  async heldOnline(orderUuid: string, manager: EntityManager): Promise<boolean> {
    const payments = await this.payments.ofOrders(manager, [orderUuid]);
    const refunds = await this.refundRows.refundsOfOrders(manager, [orderUuid]);
    return refundable(payments, refunds).some(
      ({ payment, left }) => payment.channel !== 'manual' && left.gt(0),
    );
  }

  /**
   * Takes the lock every transaction changing an order's payments takes
   * first; an order transaction that may reach its payments takes it before
   * its own row lock.
   */
  lock(tx: Transaction, orderUuid: string): Promise<void> {
    return this.payments.lockOrderPayments(tx.manager, orderUuid);
  }

  /** The payments of these orders with their refunds, by order uuid (read on `manager`). */
  async ofOrders(
    orderUuids: readonly string[],
    manager: EntityManager = this.payments.manager,
  ): Promise<Map<string, PaymentsOfOrder>> {
    // Refunds are rare: read only for the orders that have some.
    const { payments, refunded } = await this.payments.ofOrdersNamingRefunded(manager, orderUuids);
    const refunds = await this.refundRows.refundsOfOrders(manager, refunded);
    const byOrder = new Map<string, { payments: PaymentRow[]; refunds: typeof refunds }>();
    for (const uuid of orderUuids) byOrder.set(uuid, { payments: [], refunds: [] });
    for (const payment of payments) {
      if (payment.orderUuid) byOrder.get(payment.orderUuid)?.payments.push(payment);
    }
    for (const refund of refunds) byOrder.get(refund.orderUuid)?.refunds.push(refund);
    return byOrder;
  }
}
