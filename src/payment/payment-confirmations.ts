import { lockKeyOf, orderOf } from './domain/paid-for';
import { Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { Clock } from '../common/clock';
import { Money } from '../common/money';
import { EventBus, Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { fromMinorUnits } from './domain/currency';
import { ChangedBy, PaymentTransitions } from './payment-transitions';
import { PaymentRefundRepository } from './payment-refund.repository';
import { PaymentChanges, PaymentRepository, PaymentRow } from './payment.repository';
import { ChargeReport, PaymentProvider, ProviderEvent } from './providers/payment-provider';
import { PaymentProviders } from './providers/payment-providers';

export interface WebhookReceipt {
  /** Whether the event changed a payment. */
  changed: boolean;
}

type RefundEvent = Extract<ProviderEvent, { kind: 'refund' }>;

const PROVIDER: ChangedBy = { actor: 'provider', userUuid: null };

/**
 * What providers report about charges and refunds, from their webhooks,
 * verify calls and the checks of pending charges, applied by one rule: under
 * the order's payments lock and the payment's row lock, the event recorded
 * first (a replay is recognised by its key and changes nothing), then a
 * state check, so a payment is marked paid exactly once however many
 * deliveries and checks race.
 */
@Injectable()
export class PaymentConfirmations {
  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly refundRows: PaymentRefundRepository,
    private readonly transitions: PaymentTransitions,
    private readonly bus: EventBus,
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
    const provider = this.providers.online(providerName);
    if (!provider) throw ApiError.notFound('No such webhook.');
    const event = rawBody ? provider.readEvent(rawBody, headers) : null;
    if (!event) throw ApiError.unauthenticated('The webhook signature is missing or wrong.');
    switch (event.kind) {
      case 'charge':
        return { changed: await this.applyReport(provider, event.charge) };
      case 'refund':
        return { changed: await this.applyRefund(provider, event) };
      default:
        return { changed: false };
    }
  }

  /**
   * A provider's account of a charge: success with the payment's currency
   * makes it paid with the amount the provider reports (once); another
   * currency makes it failed as a `mismatch` (nothing counted, the owner
   * told); a failure fails a pending payment. False when nothing changed.
   */
  async applyReport(provider: PaymentProvider, charge: ChargeReport): Promise<boolean> {
    if (charge.outcome === 'pending') return false;
    const known = await this.payments.findByReference(this.payments.manager, charge.reference);
    if (!known) return false;
    const eventKey = `charge.${charge.outcome}:${charge.transactionId ?? charge.reference}`;
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, lockKeyOf(known));
      const payment = (await this.payments.findByUuid(tx.manager, known.uuid, true))!;
      const fresh = await this.payments.recordEvent(tx.manager, {
        provider: provider.name,
        eventKey,
        eventType: `charge.${charge.outcome}`,
        reference: charge.reference,
        orderUuid: payment.orderUuid,
        paymentUuid: payment.uuid,
        outcome: 'none',
        detail: {
          transaction_id: charge.transactionId,
          amount: charge.amountMinor,
          currency: charge.currency,
          channel: charge.channel ?? null,
        },
      });
      if (!fresh) return false;
      const outcome = await this.settle(tx, payment, charge, PROVIDER);
      await this.payments.setEventOutcome(tx.manager, provider.name, eventKey, outcome ?? 'none');
      return outcome !== null;
    });
  }

  /**
   * Applies a charge report to a payment held under lock; the payment's new
   * status, or null when the report changes nothing (the payment is paid
   * already, or a failure of one that is not pending).
   */
  async settle(
    tx: Transaction,
    payment: PaymentRow,
    charge: ChargeReport,
    by: ChangedBy,
  ): Promise<string | null> {
    if (payment.status === 'paid') return null;
    const closed: PaymentChanges = { nextAction: null, nextCheckAt: null };
    if (charge.outcome === 'failed') {
      if (payment.status !== 'pending') return null;
      await this.transitions.change(
        tx,
        payment,
        { ...closed, status: 'failed', failure: 'declined', error: failureText(charge) },
        by,
      );
      return 'failed';
    }
    if (charge.currency !== (payment.currency ?? '').toUpperCase()) {
      const reported = `${fromMinorUnits(charge.amountMinor)} ${charge.currency}`;
      await this.transitions.change(
        tx,
        payment,
        {
          ...closed,
          status: 'failed',
          failure: 'mismatch',
          transactionId: charge.transactionId,
          error: `The provider reported ${reported} for ${charge.reference}; the payment is ${[payment.amount, payment.currency].filter(Boolean).join(' ')}.`,
        },
        by,
      );
      return 'mismatch';
    }
    // The money is real whatever became of the attempt meanwhile (abandoned, failed, expired).
    await this.transitions.change(
      tx,
      payment,
      {
        ...closed,
        status: 'paid',
        failure: null,
        error: null,
        amountPaid: fromMinorUnits(charge.amountMinor),
        transactionId: charge.transactionId,
        paidAt: charge.paidAt ?? this.clock.now(),
      },
      by,
    );
    return 'paid';
  }

  /**
   * A refund confirmed by the provider: one the service made (and already
   * counted) changes nothing; one made at the provider itself is recorded
   * and counted.
   */
  private async applyRefund(provider: PaymentProvider, event: RefundEvent): Promise<boolean> {
    const known = await this.payments.findByReference(this.payments.manager, event.reference);
    if (!known) return false;
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, lockKeyOf(known));
      const payment = (await this.payments.findByUuid(tx.manager, known.uuid, true))!;
      const fresh = await this.payments.recordEvent(tx.manager, {
        provider: provider.name,
        eventKey: event.key,
        eventType: 'refund.processed',
        reference: event.reference,
        orderUuid: payment.orderUuid,
        paymentUuid: payment.uuid,
        outcome: 'none',
        detail: { refund_id: event.refundId, amount: event.amountMinor, currency: event.currency },
      });
      if (!fresh || payment.status !== 'paid') return false;
      const amount = fromMinorUnits(event.amountMinor);
      if (
        await this.refundRows.confirmKnownRefund(tx.manager, payment.uuid, event.refundId, amount)
      ) {
        await this.payments.setEventOutcome(tx.manager, provider.name, event.key, 'known');
        return false;
      }
      await this.refundRows.insertRefund(tx.manager, {
        orderUuid: orderOf(payment),
        paymentUuid: payment.uuid,
        provider: provider.name,
        amount: Money.min(new Money(amount), new Money(payment.amountPaid)).toFixed(2),
        reason: 'Refunded at the provider',
        status: 'processed',
        providerRefundId: event.refundId,
        requestedBy: null,
      });
      await this.transitions.announce(tx, payment, PROVIDER);
      await this.payments.setEventOutcome(tx.manager, provider.name, event.key, 'refunded');
      return true;
    });
  }
}

function failureText(charge: ChargeReport): string {
  return charge.message ? `The payment failed: ${charge.message}` : 'The payment failed.';
}
