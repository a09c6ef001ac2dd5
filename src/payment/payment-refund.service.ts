import { Injectable, Logger } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { AccessPolicy } from '../team';
import { ApiError } from '../http/api-error';
import { Money, parsePrice } from '../common/money';
import { isUuid } from '../common/uuid';
import { OrderEntity, OrderEventBus, OrderResponseDto } from '../order';
import { toMinorUnits } from './domain/currency';
import { stateAfterRefund } from './domain/payment-state';
import { RefundOrderDto } from './dto/refund-order.dto';
import { OrderAccess } from './order-access';
import { PaymentRepository } from './payment.repository';
import { PaymentTransitions } from './payment-transitions.service';
import { PaymentProviders } from './providers/payment-providers';

/** The amount refunded and the payment's state once `amount` more is refunded. */
export function refundedState(order: OrderEntity, amount: Money) {
  const paid = new Money(order.amountPaid);
  const refunded = Money.min(paid, new Money(order.amountRefunded).plus(amount));
  const state = stateAfterRefund(paid, refunded, new Money(order.amount));
  return { paymentState: state, amountRefunded: refunded.toFixed(2) };
}

/**
 * The owner's refunds. An online payment is refunded through the provider
 * (the call happens between two short transactions; the refund is `pending`
 * meanwhile and a second refund of the order is refused with 409); an
 * offline one is recorded as the owner says. The provider's refund id ties
 * the refund to the provider's event about it: an event that arrived while
 * the call was still open was counted then, and is not counted again. A refund counts in
 * `amount_refunded` as soon as the provider accepts it.
 */
// R32: refunds.
@Injectable()
export class PaymentRefundService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly events: OrderEventBus,
    private readonly transitions: PaymentTransitions,
    private readonly access: OrderAccess,
    private readonly policy: AccessPolicy,
  ) {}

  async refundOrder(
    user: AuthUser,
    orderId: string,
    dto: RefundOrderDto,
  ): Promise<OrderResponseDto> {
    if (!isUuid(orderId)) throw ApiError.notFound('The order does not exist.');
    const started = await this.events.transaction(async (manager, publish) => {
      const order = await this.payments.lockOrder(manager, orderId.toLowerCase());
      if (!order) throw ApiError.notFound('The order does not exist.');
      const role = await this.policy.requireAccess(
        user,
        'payment.refund',
        order.businessUuid,
        { message: "Only the owner of the order's business or its managers may refund it." },
        manager,
      );
      const paid = new Money(order.amountPaid);
      const left = paid.minus(order.amountRefunded);
      if (paid.lte(0) || left.lte(0)) {
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
      const amount = dto.amount === undefined ? left : parsePrice(dto.amount)!;
      if (amount.gt(left)) {
        throw ApiError.unprocessable(
          `At most ${left.toFixed(2)} can be refunded (paid ${paid.toFixed(2)}, refunded ${new Money(order.amountRefunded).toFixed(2)}).`,
          [{ field: 'amount', message: `at most ${left.toFixed(2)}`, refundable: left.toFixed(2) }],
        );
      }
      if (await this.payments.pendingRefund(manager, order.uuid)) {
        throw ApiError.conflict('Another refund of this order is being made; try again shortly.');
      }
      const refund = {
        orderUuid: order.uuid,
        provider: order.paymentProcessor,
        amount: amount.toFixed(2),
        reason: dto.reason?.trim() || null,
        providerRefundId: null,
        requestedBy: user.uuid,
      };
      if (order.paymentCollect === 'offline') {
        await this.payments.insertRefund(manager, { ...refund, status: 'succeeded' });
        const result = await this.transitions.apply(
          manager,
          publish,
          order,
          refundedState(order, amount),
          { actor: role, userUuid: user.uuid },
        );
        return { done: await this.access.detail(result.order, manager) };
      }
      const refundUuid = await this.payments.insertRefund(manager, {
        ...refund,
        status: 'pending',
      });
      return { pending: { refundUuid, order, amount, role } };
    });
    if (started.done) return started.done;

    const { refundUuid, order, amount, role } = started.pending!;
    const outcome = await this.providers.get(order.paymentProcessor).refund({
      reference: order.paymentReference ?? '',
      amountMinor: toMinorUnits(amount),
      currency: order.currency ?? '',
      reason: dto.reason?.trim() || null,
    });
    const answer = await this.events.transaction(async (manager, publish) => {
      const locked = (await this.payments.lockOrder(manager, order.uuid))!;
      // Settled meanwhile by the check for refunds a stopped process left pending.
      if (!(await this.payments.isPending(manager, refundUuid))) {
        return this.access.detail(locked, manager);
      }
      if (!outcome.ok) {
        await this.payments.finishRefund(manager, refundUuid, 'failed', null, outcome.error);
        return null;
      }
      const id = outcome.refundId;
      if (id && (await this.payments.takeCountedRefund(manager, order.uuid, id, refundUuid))) {
        return this.access.detail(locked, manager);
      }
      await this.payments.finishRefund(manager, refundUuid, 'succeeded', id, null);
      const result = await this.transitions.apply(
        manager,
        publish,
        locked,
        refundedState(locked, amount),
        { actor: role, userUuid: user.uuid },
      );
      return this.access.detail(result.order, manager);
    });
    if (!answer) {
      const error = outcome.ok ? 'The refund was not made.' : outcome.error;
      this.logger.warn(`Refund of order ${order.uuid} failed: ${error}`);
      throw ApiError.unprocessable(error, [{ field: 'amount', message: error }]);
    }
    return answer;
  }
}
