import { Injectable, Logger } from '@nestjs/common';
import { Money } from '../common/money';
import { EventBus } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { toMinorUnits } from './domain/currency';
import { paymentsTotal } from './payment-metrics';
import { ChangedBy, OrderSnapshot, PaymentTransitions } from './payment-transitions';
import { COUNTED_REFUNDS, PaymentRefundRepository, RefundRow } from './payment-refund.repository';
import { PaymentRepository, PaymentRow } from './payment.repository';
import { PaymentProviders } from './providers/payment-providers';

/** What a refund asks: how much (all that is left when absent), why, and who asks. */
export interface RefundRequest {
  amount: Money | undefined;
  reason: string | null;
  by: ChangedBy & { userUuid: string | null };
}

/** What a refund did: the refunds made, and the provider's refusals. */
export interface RefundResult {
  made: number;
  failed: string[];
}

interface Part {
  payment: PaymentRow;
  amount: Money;
  refundUuid: string;
  online: boolean;
}

/** What is left to give back of each paid payment, newest paid first. */
export function refundable(
  payments: readonly PaymentRow[],
  refunds: readonly RefundRow[],
): Array<{ payment: PaymentRow; left: Money }> {
  return payments
    .filter((payment) => payment.status === 'paid')
    .sort((a, b) => new Date(b.paidAt ?? 0).getTime() - new Date(a.paidAt ?? 0).getTime())
    .map((payment) => {
      const given = refunds
        .filter((r) => r.paymentUuid === payment.uuid && COUNTED_REFUNDS.includes(r.status))
        .reduce((sum, r) => sum.plus(r.amount), new Money(0));
      const left = new Money(payment.amountPaid).minus(given);
      return { payment, left: left.gt(0) ? left : new Money(0) };
    });
}

/**
 * Refunds follow the payments: a refund takes from the paid payments, the
 * one paid last first, each through its own provider (an online payment is
 * refunded through the provider between two short transactions, `pending`
 * meanwhile so a second refund of the order is refused with 409; money the
 * business collected is recorded as given back). One refund over several
 * payments makes a refund record per payment. The provider's refund id ties
 * each to the provider's event about it, so an event that raced the call is
 * not counted twice.
 */
@Injectable()
export class PaymentRefunds {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly refundRows: PaymentRefundRepository,
    private readonly transitions: PaymentTransitions,
    private readonly bus: EventBus,
  ) {}

  async refund(order: OrderSnapshot, request: RefundRequest): Promise<RefundResult> {
    const parts = await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, order.uuid);
      const payments = await this.payments.ofOrders(tx.manager, [order.uuid]);
      const refunds = await this.refundRows.refundsOfOrders(tx.manager, [order.uuid]);
      const open = refundable(payments, refunds);
      const left = open.reduce((sum, entry) => sum.plus(entry.left), new Money(0));
      const paid = payments.reduce(
        (sum, p) => (p.status === 'paid' ? sum.plus(p.amountPaid) : sum),
        new Money(0),
      );
      if (left.lte(0)) {
        throw ApiError.unprocessable(
          paid.lte(0)
            ? 'Nothing has been paid for this order.'
            : 'The payment is already refunded in full.',
          [
            {
              field: 'amount',
              message: `refundable: ${left.toFixed(2)}`,
              refundable: left.toFixed(2),
            },
          ],
        );
      }
      const amount = request.amount ?? left;
      if (amount.gt(left)) {
        throw ApiError.unprocessable(
          `At most ${left.toFixed(2)} can be refunded (paid ${paid.toFixed(2)}, refunded ${paid.minus(left).toFixed(2)}).`,
          [{ field: 'amount', message: `at most ${left.toFixed(2)}`, refundable: left.toFixed(2) }],
        );
      }
      if (await this.refundRows.hasPendingRefund(tx.manager, order.uuid)) {
        throw ApiError.conflict('Another refund of this order is being made; try again shortly.');
      }
      paymentsTotal.inc({ result: amount.gte(left) ? 'refunded' : 'partially_refunded' });
      const taken: Part[] = [];
      let rest = amount;
      for (const { payment, left: available } of open) {
        if (rest.lte(0)) break;
        const share = Money.min(rest, available);
        if (share.lte(0)) continue;
        rest = rest.minus(share);
        const online =
          this.providers.get(payment.method).collect === 'online' && payment.channel !== 'manual';
        const refundUuid = await this.refundRows.insertRefund(tx.manager, {
          orderUuid: order.uuid,
          paymentUuid: payment.uuid,
          provider: payment.method,
          amount: share.toFixed(2),
          reason: request.reason,
          status: online ? 'pending' : 'succeeded',
          providerRefundId: null,
          requestedBy: request.by.userUuid,
        });
        if (!online) await this.transitions.announce(tx, payment, request.by);
        taken.push({ payment, amount: share, refundUuid, online });
      }
      return taken;
    });
    const result: RefundResult = { made: parts.filter((p) => !p.online).length, failed: [] };
    for (const part of parts.filter((p) => p.online)) {
      const error = await this.refundOnline(order, part, request);
      if (error) result.failed.push(error);
      else result.made += 1;
    }
    if (result.made === 0 && result.failed.length) {
      throw ApiError.unprocessable(
        result.failed[0],
        result.failed.map((message) => ({ field: 'amount', message })),
      );
    }
    return result;
  }

  /** Asks the provider for one part; its refusal in words, or null when it was made. */
  private async refundOnline(
    order: OrderSnapshot,
    part: Part,
    request: RefundRequest,
  ): Promise<string | null> {
    const outcome = await this.providers.get(part.payment.method).refund({
      reference: part.payment.reference ?? '',
      amountMinor: toMinorUnits(part.amount),
      currency: part.payment.currency ?? '',
      reason: request.reason,
    });
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, order.uuid);
      // Settled meanwhile by the check for refunds a stopped process left pending.
      if (!(await this.refundRows.pendingRefund(tx.manager, part.refundUuid))) return null;
      if (!outcome.ok) {
        await this.refundRows.finishRefund(
          tx.manager,
          part.refundUuid,
          'failed',
          null,
          outcome.error,
        );
        this.logger.warn(`Refund of payment ${part.payment.uuid} failed: ${outcome.error}`);
        return outcome.error;
      }
      const id = outcome.refundId;
      if (
        id &&
        (await this.refundRows.takeCountedRefund(
          tx.manager,
          part.payment.uuid,
          id,
          part.refundUuid,
        ))
      ) {
        return null;
      }
      await this.refundRows.finishRefund(tx.manager, part.refundUuid, 'succeeded', id, null);
      await this.transitions.announce(tx, part.payment, request.by);
      return null;
    });
  }
}
