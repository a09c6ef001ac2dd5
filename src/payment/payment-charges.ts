import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Money } from '../common/money';
import { EventBus, Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import {
  CHARGE_OPEN_MS,
  ChargeChannel,
  chargeCurrency,
  channelOffered,
  TRANSFER_OPEN_MS,
} from './domain/charge-channels';
import { fromMinorUnits, toMinorUnits } from './domain/currency';
import { offeredProviders, offeredProviderEntry } from './domain/payment-methods';
import { sumPaid } from './domain/payment-state';
import { CreatePaymentDto } from './dto/create-payment.dto';
import { CheckoutContext, FIRST_CHECK_MS, referenceOf } from './payment-checkouts';
import { PaymentConfirmations } from './payment-confirmations';
import { paymentsTotal } from './payment-metrics';
import {
  ChangedBy,
  OrderSnapshot,
  PaymentTransitions,
  ShareChargeSnapshot,
} from './payment-transitions';
import { PaymentChanges, PaymentRepository, PaymentRow } from './payment.repository';
import { ChargeOutcome, ChargeRequest, ChargeState } from './providers/payment-provider';
import { PaymentProviders } from './providers/payment-providers';

const GUEST: ChangedBy = { actor: 'guest', userUuid: null };

function refuseChannel(message: string, detail: string): ApiError {
  return ApiError.unprocessable(message, [{ field: 'channel', message: detail }]);
}

/**
 * Paying from the order page (Paystack's Charge API): a USSD code to dial, a
 * mobile money prompt to approve, an OTP, or an account number issued for
 * this payment to transfer to. The charge's payment is written first (its
 * reference taken under the order's payments lock), the provider is asked
 * outside any transaction, and its answer is written in a short transaction
 * of its own.
 */
@Injectable()
export class PaymentCharges {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly transitions: PaymentTransitions,
    private readonly confirmations: PaymentConfirmations,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  async create(
    order: OrderSnapshot,
    body: CreatePaymentDto,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    const provider = this.check(order, body, context);
    const payment = await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, order.uuid);
      const all = await this.payments.ofOrders(tx.manager, [order.uuid]);
      const outstanding = new Money(order.amount).minus(sumPaid(all));
      if (outstanding.lte(0)) {
        throw ApiError.conflict('The order is already paid.', [
          { field: 'payment', message: 'nothing is left to pay' },
        ]);
      }
      const now = this.clock.nowMs();
      const open = body.channel === 'bank_transfer' ? TRANSFER_OPEN_MS : CHARGE_OPEN_MS;
      return this.payments.insert(tx.manager, {
        orderUuid: order.uuid,
        businessUuid: order.businessUuid,
        method: 'paystack',
        channel: body.channel,
        amount: outstanding.toFixed(2),
        currency: order.currency,
        reference: referenceOf(order.orderReference, all.length + 1),
        expiresAt: new Date(now + open),
        nextCheckAt: new Date(now + FIRST_CHECK_MS),
      });
    });
    const subaccount = context.business.paystack_subaccount_code;
    const request = {
      reference: payment.reference!,
      email: order.email,
      amountMinor: toMinorUnits(payment.amount),
      currency: payment.currency ?? '',
      subaccount: typeof subaccount === 'string' && subaccount.trim() ? subaccount.trim() : null,
      metadata: {
        order_uuid: order.uuid,
        order_reference: order.orderReference,
        reference: payment.reference,
      },
      ...this.channelPart(body, payment),
    } as ChargeRequest;
    const outcome = await provider.charge(request);
    paymentsTotal.inc({ result: outcome.ok ? 'charge_opened' : 'charge_failed' });
    if (!outcome.ok) this.logger.warn(`Charge ${payment.reference} not opened: ${outcome.error}`);
    return this.record(order.uuid, payment.uuid, outcome);
  }

  /**
   * A charge for a share of a tab, from the tab page. Under the share's
   * lock, a share already paid, or with a charge still open, is 409 before
   * the provider is asked: two guests paying one share at once pay it once.
   */
  async createForShare(
    share: ShareChargeSnapshot,
    body: CreatePaymentDto,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    const provider = this.check(
      {
        uuid: share.uuid,
        businessUuid: share.businessUuid,
        orderReference: share.reference,
        amount: share.amount,
        currency: share.currency,
        email: share.email,
        method: 'paystack',
      },
      body,
      context,
    );
    const payment = await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, share.uuid);
      const all = await this.payments.ofShares(tx.manager, [share.uuid]);
      if (sumPaid(all).gte(share.amount)) {
        throw ApiError.conflict('The share is already paid.', [
          { field: 'share_uuid', message: 'nothing is left to pay' },
        ]);
      }
      const now = this.clock.nowMs();
      const underWay = all.find(
        (row) =>
          row.status === 'pending' && (!row.expiresAt || new Date(row.expiresAt).getTime() > now),
      );
      if (underWay) {
        throw ApiError.conflict('A payment of this share is under way.', [
          { field: 'share_uuid', message: 'a payment is under way', payment_uuid: underWay.uuid },
        ]);
      }
      const open = body.channel === 'bank_transfer' ? TRANSFER_OPEN_MS : CHARGE_OPEN_MS;
      return this.payments.insert(tx.manager, {
        orderUuid: null,
        shareUuid: share.uuid,
        businessUuid: share.businessUuid,
        method: 'paystack',
        channel: body.channel,
        amount: new Money(share.amount).toFixed(2),
        tipAmount: new Money(share.tip).toFixed(2),
        currency: share.currency,
        reference: referenceOf(share.reference, all.length + 1),
        expiresAt: new Date(now + open),
        nextCheckAt: new Date(now + FIRST_CHECK_MS),
      });
    });
    const subaccount = context.business.paystack_subaccount_code;
    const request = {
      reference: payment.reference!,
      email: share.email,
      // The share and the tip given with it.
      amountMinor: toMinorUnits(new Money(payment.amount).plus(payment.tipAmount).toFixed(2)),
      currency: payment.currency ?? '',
      subaccount: typeof subaccount === 'string' && subaccount.trim() ? subaccount.trim() : null,
      metadata: { share_uuid: share.uuid, reference: payment.reference },
      ...this.channelPart(body, payment),
    } as ChargeRequest;
    const outcome = await provider.charge(request);
    paymentsTotal.inc({ result: outcome.ok ? 'charge_opened' : 'charge_failed' });
    if (!outcome.ok) this.logger.warn(`Charge ${payment.reference} not opened: ${outcome.error}`);
    return this.record(share.uuid, payment.uuid, outcome);
  }

  /** Forwards the guest's OTP for a charge that asked for one. */
  async submitOtp(order: OrderSnapshot, paymentUuid: string, otp: string): Promise<PaymentRow> {
    const payment = await this.payments.findByUuid(this.payments.manager, paymentUuid);
    if (!payment || payment.orderUuid !== order.uuid) {
      throw ApiError.notFound('The payment does not exist.');
    }
    if (
      payment.status !== 'pending' ||
      (payment.nextAction as { type?: string } | null)?.type !== 'otp'
    ) {
      throw ApiError.conflict('This payment is not waiting for an OTP.', [
        { field: 'otp', message: `the payment is ${payment.status}`, status: payment.status },
      ]);
    }
    const provider = this.providers.online(payment.method)!;
    const outcome = await provider.submitOtp(payment.reference!, otp);
    // A refused code (a typo, say) leaves the charge waiting for the right one.
    if (!outcome.ok)
      throw ApiError.unprocessable(outcome.error, [{ field: 'otp', message: outcome.error }]);
    return this.record(order.uuid, payment.uuid, outcome);
  }

  /**
   * Writes where the provider says a charge stands, under the order's
   * payments lock; a payment settled meanwhile (a webhook raced the answer)
   * is left as it is.
   */
  async record(
    /** What the payment pays (its lock): the order's uuid, or the share's. */
    orderUuid: string,
    paymentUuid: string,
    outcome: ChargeOutcome,
  ): Promise<PaymentRow> {
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, orderUuid);
      const payment = (await this.payments.findByUuid(tx.manager, paymentUuid, true))!;
      if (payment.status !== 'pending') return payment;
      if (!outcome.ok) {
        return this.transitions.change(
          tx,
          payment,
          {
            status: 'failed',
            failure: 'declined',
            error: outcome.error,
            nextCheckAt: null,
            nextAction: null,
          },
          GUEST,
        );
      }
      return this.apply(tx, payment, outcome.state, GUEST);
    });
  }

  /** Applies a charge's state to its payment, held under lock. */
  async apply(
    tx: Transaction,
    payment: PaymentRow,
    state: ChargeState,
    by: ChangedBy,
  ): Promise<PaymentRow> {
    if (state.kind === 'paid') {
      await this.confirmations.settle(tx, payment, state.charge, { ...by, actor: 'provider' });
      return (await this.payments.findByUuid(tx.manager, payment.uuid))!;
    }
    const set = this.changesOf(payment, state);
    if (!set) return payment;
    return this.transitions.change(tx, payment, set, by);
  }

  private changesOf(
    payment: PaymentRow,
    state: Exclude<ChargeState, { kind: 'paid' }>,
  ): PaymentChanges | null {
    const expires = payment.expiresAt ? new Date(payment.expiresAt).toISOString() : null;
    switch (state.kind) {
      case 'failed':
        return {
          status: 'failed',
          failure: 'declined',
          error: `The payment failed: ${state.message}`,
          nextAction: null,
          nextCheckAt: null,
        };
      case 'dial':
        return {
          nextAction: {
            type: 'dial',
            code: state.code,
            message: state.message,
            expires_at: expires,
          },
          error: null,
        };
      case 'approve_on_phone':
        return {
          nextAction: {
            type: 'approve_on_phone',
            message: state.message ?? 'Approve the payment on your phone.',
            expires_at: expires,
          },
          error: null,
        };
      case 'otp':
        return {
          nextAction: {
            type: 'otp',
            message: state.message ?? 'Enter the code sent to your phone.',
          },
          error: null,
        };
      case 'transfer': {
        const expiresAt = state.account.expiresAt ?? payment.expiresAt;
        return {
          expiresAt,
          error: null,
          nextAction: {
            type: 'transfer',
            account_number: state.account.accountNumber,
            bank_name: state.account.bankName,
            account_name: state.account.accountName,
            amount: fromMinorUnits(state.account.amountMinor),
            expires_at: expiresAt ? new Date(expiresAt).toISOString() : null,
          },
        };
      }
      case 'pending':
        return null;
    }
  }

  /** Refuses what cannot be charged here: no provider, a channel the menu does not offer, another currency. */
  private check(order: OrderSnapshot, body: CreatePaymentDto, context: CheckoutContext) {
    const provider = this.providers.online('paystack');
    const providers = context.menu.menu_checkout_payments_providers;
    if (!provider || !offeredProviders(providers).has('paystack')) {
      throw refuseChannel(
        'This menu does not take payments from the order page.',
        provider ? 'the menu does not offer paystack' : 'no online payment provider is configured',
      );
    }
    const channel: ChargeChannel = body.channel;
    if (!channelOffered(offeredProviderEntry(providers, 'paystack'), channel)) {
      throw refuseChannel(
        `This menu does not take ${channel} payments.`,
        `the menu's paystack channels do not include ${channel}`,
      );
    }
    const currency = chargeCurrency(channel, body.provider);
    if ((order.currency ?? '').toUpperCase() !== currency) {
      throw refuseChannel(
        `A ${channel} payment${body.provider ? ` with ${body.provider}` : ''} is taken in ${currency}, not ${order.currency ?? 'this currency'}.`,
        `${channel} takes ${currency}`,
      );
    }
    return provider;
  }

  private channelPart(body: CreatePaymentDto, payment: PaymentRow) {
    switch (body.channel) {
      case 'ussd':
        return { channel: 'ussd' as const, bank: body.bank! };
      case 'mobile_money':
        return { channel: 'mobile_money' as const, provider: body.provider!, phone: body.phone! };
      case 'bank_transfer':
        return {
          channel: 'bank_transfer' as const,
          accountExpiresAt: new Date(payment.expiresAt!),
        };
    }
  }
}
