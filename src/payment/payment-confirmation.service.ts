import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { ApiError } from '../http/api-error';
import { Money } from '../common/money';
import {
  GuestOrderResponseDto,
  OrderEntity,
  OrderEventBus,
  OrderResponseDto,
  PublishOrderEvent,
} from '../order';
import { fromMinorUnits, toMinorUnits } from './domain/currency';
import { PaymentState, SETTLED_STATES, stateAfterRefund } from './domain/payment-state';
import { OrderAccess } from './order-access';
import { PaymentRepository } from './payment.repository';
import { PaymentTransitions } from './payment-transitions.service';
import { ChargeReport, PaymentProvider, ProviderEvent } from './providers/payment-provider';
import { PaymentProviders } from './providers/payment-providers';

export interface WebhookReceipt {
  /** Whether the event changed an order's payment. */
  changed: boolean;
}

type RefundEvent = Extract<ProviderEvent, { kind: 'refund' }>;

/**
 * What providers report about charges and refunds, from their webhooks and
 * from verify calls, applied by one rule: under the order's row lock, the
 * event recorded first (a replay is recognised by its key and changes
 * nothing), then a state check, so an order is marked paid exactly once
 * however many deliveries and verify calls race.
 */
@Injectable()
export class PaymentConfirmationService {
  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly events: OrderEventBus,
    private readonly transitions: PaymentTransitions,
    private readonly access: OrderAccess,
    private readonly clock: Clock,
  ) {}

  /**
   * A provider's webhook. The signature over the raw body is checked before
   * anything is read or stored (401 otherwise); unknown references and event
   * types are acknowledged and change nothing.
   */
  async receiveWebhook(
    providerName: string,
    rawBody: Buffer | undefined,
    headers: IncomingHttpHeaders,
  ): Promise<WebhookReceipt> {
    const provider = this.onlineProvider(providerName);
    if (!provider) throw ApiError.notFound('No such webhook.');
    const event = rawBody ? provider.readEvent(rawBody, headers) : null;
    if (!event) throw ApiError.unauthenticated('The webhook signature is missing or wrong.');
    switch (event.kind) {
      case 'charge':
        return { changed: await this.applyCharge(provider, event.charge, 'webhook') };
      case 'refund':
        return { changed: await this.applyRefund(provider, event) };
      default:
        return { changed: false };
    }
  }

  /**
   * Asks the provider about the order's latest checkout and applies the
   * answer as a webhook would be applied (for a callback page when the
   * webhook is late).
   */
  async verifyPayment(
    uuid: string,
    token: string | undefined,
    user: AuthUser | undefined,
    ip: string,
  ): Promise<GuestOrderResponseDto | OrderResponseDto> {
    const { order, viewer } = await this.access.guestOrOwnerOrder(uuid, token, user);
    if (viewer === 'guest') await this.access.limitGuest('verify', order.uuid, ip);
    const provider = this.onlineProvider(order.paymentProcessor);
    if (!provider || order.paymentCollect !== 'online') {
      throw ApiError.unprocessable(
        `The order is paid by ${order.paymentProcessor}, which the provider does not confirm.`,
        [{ field: 'payment_processor', message: 'only online card payments can be verified' }],
      );
    }
    if (!order.paymentReference) {
      throw ApiError.unprocessable('No checkout has been opened for this order yet.', [
        { field: 'payment', message: 'open a checkout first' },
      ]);
    }
    const outcome = await provider.verify(order.paymentReference);
    if (!outcome.ok) {
      throw ApiError.unprocessable(outcome.error, [{ field: 'payment', message: outcome.error }]);
    }
    await this.applyCharge(provider, outcome.charge, 'verify');
    const current = await this.payments.findOrder(order.uuid);
    return this.access.detailFor(viewer, current ?? order);
  }

  private onlineProvider(name: string): PaymentProvider | null {
    const provider = this.providers.get(name);
    return provider.name === name && provider.collect === 'online' ? provider : null;
  }

  /** The charge rule: success with the order's amount and currency → paid; otherwise mismatch. */
  private async applyCharge(
    provider: PaymentProvider,
    charge: ChargeReport,
    source: 'webhook' | 'verify',
  ): Promise<boolean> {
    if (charge.outcome === 'pending') return false;
    const eventKey = `charge.${charge.outcome}:${charge.transactionId ?? charge.reference}`;
    return this.events.transaction(async (manager, publish) => {
      const order = await this.payments.findForUpdateByReference(manager, charge.reference);
      if (!order || order.paymentCollect !== 'online') return false;
      const fresh = await this.payments.recordEvent(manager, {
        provider: provider.name,
        eventKey,
        eventType: `charge.${charge.outcome}`,
        reference: charge.reference,
        orderUuid: order.uuid,
        outcome: 'none',
        detail: {
          source,
          transaction_id: charge.transactionId,
          amount: charge.amountMinor,
          currency: charge.currency,
        },
      });
      if (!fresh) return false;
      if (SETTLED_STATES.includes(order.paymentState)) {
        return this.applyAnotherCharge(manager, publish, provider, eventKey, order, charge);
      }

      let next: PaymentState;
      let changes: Parameters<PaymentTransitions['apply']>[3];
      if (charge.outcome === 'failed') {
        if (order.paymentState !== 'pending' && order.paymentState !== 'unpaid') return false;
        next = 'failed';
        changes = { paymentState: next, paymentError: 'The card payment failed.' };
      } else if (
        charge.amountMinor !== toMinorUnits(order.amount) ||
        charge.currency !== order.currency
      ) {
        next = 'mismatch';
        changes = {
          paymentState: next,
          paymentError: `The provider reported ${fromMinorUnits(charge.amountMinor)} ${charge.currency} for ${charge.reference}; the order is ${[order.amount, order.currency].filter(Boolean).join(' ')}.`,
        };
      } else {
        next = 'paid';
        changes = {
          paymentState: next,
          amountPaid: order.amount,
          paidAt: charge.paidAt ?? this.clock.now(),
          paymentTransactionId: charge.transactionId,
          paymentReference: charge.reference,
          paymentError: null,
        };
      }
      await this.transitions.apply(manager, publish, order, changes, {
        actor: 'provider',
        userUuid: null,
      });
      await this.payments.setEventOutcome(manager, provider.name, eventKey, next);
      return true;
    });
  }

  /**
   * A successful charge of an order already paid: another of its checkouts
   * was paid too (the guest paid twice). The money is real, so it is never
   * dropped: it counts in `amount_paid`, the payment becomes `overpaid` (the
   * history and the owner hear of each such charge), and the owner may refund
   * the difference. The charge that paid the order, reported again, changes
   * nothing.
   */
  private async applyAnotherCharge(
    manager: EntityManager,
    publish: PublishOrderEvent,
    provider: PaymentProvider,
    eventKey: string,
    order: OrderEntity,
    charge: ChargeReport,
  ): Promise<boolean> {
    const sameCharge = charge.transactionId
      ? charge.transactionId === order.paymentTransactionId
      : charge.reference === order.paymentReference;
    if (charge.outcome !== 'success' || sameCharge || charge.currency !== order.currency) {
      return false;
    }
    const paid = new Money(order.amountPaid).plus(fromMinorUnits(charge.amountMinor));
    const next = stateAfterRefund(paid, new Money(order.amountRefunded), new Money(order.amount));
    await this.transitions.apply(
      manager,
      publish,
      order,
      { paymentState: next, amountPaid: paid.toFixed(2) },
      { actor: 'provider', userUuid: null, always: true },
    );
    await this.payments.setEventOutcome(manager, provider.name, eventKey, 'overpaid');
    return true;
  }

  /**
   * A refund confirmed by the provider: one the service made (and already
   * counted) changes nothing; one made at the provider itself is added to
   * the amount refunded.
   */
  private async applyRefund(provider: PaymentProvider, event: RefundEvent): Promise<boolean> {
    return this.events.transaction(async (manager, publish) => {
      const order = await this.payments.findForUpdateByReference(manager, event.reference);
      if (!order || order.paymentCollect !== 'online') return false;
      const fresh = await this.payments.recordEvent(manager, {
        provider: provider.name,
        eventKey: event.key,
        eventType: 'refund.processed',
        reference: event.reference,
        orderUuid: order.uuid,
        outcome: 'none',
        detail: { refund_id: event.refundId, amount: event.amountMinor, currency: event.currency },
      });
      if (!fresh || !SETTLED_STATES.includes(order.paymentState)) return false;
      const amount = fromMinorUnits(event.amountMinor);
      if (await this.payments.confirmKnownRefund(manager, order.uuid, event.refundId, amount)) {
        await this.payments.setEventOutcome(manager, provider.name, event.key, 'known');
        return false;
      }
      const paid = new Money(order.amountPaid);
      const refunded = Money.min(paid, new Money(order.amountRefunded).plus(amount));
      await this.payments.insertRefund(manager, {
        orderUuid: order.uuid,
        provider: provider.name,
        amount,
        reason: 'Refunded at the provider',
        status: 'processed',
        providerRefundId: event.refundId,
        requestedBy: null,
      });
      const next = stateAfterRefund(paid, refunded, new Money(order.amount));
      await this.transitions.apply(
        manager,
        publish,
        order,
        { paymentState: next, amountRefunded: refunded.toFixed(2) },
        { actor: 'provider', userUuid: null },
      );
      await this.payments.setEventOutcome(manager, provider.name, event.key, next);
      return true;
    });
  }
}
