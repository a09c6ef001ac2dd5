import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../common/clock';
import { Money } from '../common/money';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EventBus, Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { menuCurrencyCode, toMinorUnits } from './domain/currency';
import {
  checkoutChannels,
  isPaymentOffered,
  offeredProviderEntry,
  PaymentProcessor,
} from './domain/payment-methods';
import { sumPaid } from './domain/payment-state';
import { paymentsTotal } from './payment-metrics';
import { OrderSnapshot, PaymentTransitions, ShareChargeSnapshot } from './payment-transitions';
import { PaymentChanges, PaymentRepository, PaymentRow } from './payment.repository';
import { PaymentProviders } from './providers/payment-providers';

/** A checkout's first check with the provider, and how long it may stay open. */
export const FIRST_CHECK_MS = 2 * 60_000;
export const CHECKOUT_OPEN_MS = 24 * 60 * 60_000;
/** A share's card checkout blocks other payments of the share this long at most. */
export const SHARE_CHECKOUT_OPEN_MS = 30 * 60_000;

export interface PaymentPlanInput {
  processor: PaymentProcessor;
  /** The menu's extra_data (currency, checkout providers). */
  menu: Record<string, unknown>;
  /** The callback_url of the order body, if any. */
  callbackUrl: string | undefined;
}

/** How a new order's payment is collected, decided at placement. */
export interface PaymentPlan {
  method: PaymentProcessor;
  /** Whether the provider collects it (a checkout is opened once the order commits). */
  online: boolean;
  /** The menu's ISO 4217 code, else its ticker as stored (null when none). */
  currency: string | null;
  callbackUrl: string | null;
  instructions: Record<string, unknown> | null;
}

/** The menu and business of an order, as a checkout needs them (channels, subaccount). */
export interface CheckoutContext {
  menu: Record<string, unknown>;
  business: Record<string, unknown>;
}

/** The reference of an order's n-th payment. */
export function referenceOf(orderReference: string, n: number): string {
  return `${orderReference}-${n}`;
}

/**
 * How an order's payment is collected and its card checkouts: planned inside
 * the placement transaction, opened once the order has committed (never an
 * outside call inside a transaction), the outcome written in a short
 * transaction of its own under the order's payments lock.
 */
@Injectable()
export class PaymentCheckouts {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly transitions: PaymentTransitions,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {}

  plan(input: PaymentPlanInput): PaymentPlan {
    const provider = this.providers.get(input.processor);
    const ticker = input.menu.menu_base_wallet_ticker;
    const code = menuCurrencyCode(ticker, input.menu.menu_base_wallet_ticker_symbol);
    const currency =
      code ?? (typeof ticker === 'string' && ticker.trim() ? ticker.trim().slice(0, 32) : null);
    if (provider.collect === 'offline') {
      const entry = offeredProviderEntry(
        input.menu.menu_checkout_payments_providers,
        provider.name,
      );
      return {
        method: input.processor,
        online: false,
        currency,
        callbackUrl: null,
        instructions: provider.instructions(entry),
      };
    }
    if (!provider.supportsCurrency(code)) {
      throw ApiError.unprocessable(
        `Card payments cannot be taken in this menu's currency (${code ?? String(ticker ?? 'none')}).`,
        [
          {
            field: 'payment_processor',
            message: `${provider.name} does not take ${code ?? 'a currency without an ISO 4217 code'}`,
            currency: code,
          },
        ],
      );
    }
    return {
      method: input.processor,
      online: true,
      currency: code,
      callbackUrl: this.checkCallbackUrl(input.callbackUrl),
      instructions: null,
    };
  }

  /**
   * The new order's first payment, written in the placement's transaction:
   * a checkout to open once the order commits, or money the business
   * collects. An order that costs nothing is paid at once and opens no
   * checkout.
   *
   * The row is answered as built here. Unless the placement reads the
   * order's payments back before it commits (`readInTransaction`), the
   * insert is held and goes with the transaction's last writes, in no
   * round trip of its own.
   */
  async start(
    tx: Transaction,
    order: OrderSnapshot,
    plan: PaymentPlan,
    readInTransaction: boolean,
  ): Promise<PaymentRow> {
    const now = this.clock.now();
    const free = new Money(order.amount).lte(0);
    const online = plan.online && !free;
    const payment: PaymentRow = {
      uuid: randomUUID(),
      orderUuid: order.uuid,
      shareUuid: null,
      businessUuid: order.businessUuid,
      method: plan.method,
      channel: online ? 'checkout' : 'manual',
      status: free ? 'paid' : 'pending',
      amount: new Money(order.amount).toFixed(2),
      amountPaid: '0.00',
      tipAmount: '0.00',
      currency: plan.currency,
      reference: online ? referenceOf(order.orderReference, 1) : null,
      transactionId: null,
      nextAction: null,
      authorizationUrl: null,
      accessCode: null,
      callbackUrl: online ? plan.callbackUrl : null,
      instructions: plan.instructions,
      error: null,
      failure: null,
      paidAt: free ? now : null,
      expiresAt: null,
      nextCheckAt: null,
      recordedBy: null,
      createdAt: now,
      updatedAt: now,
    };
    if (readInTransaction) return this.payments.insert(tx.manager, payment);
    await this.payments.insertBeforeCommit(tx.manager, payment);
    return payment;
  }

  /**
   * Opens the checkout of a payment reserved at placement, once its order
   * has committed. Never throws for the provider's failure: the order stands
   * and its payment carries the error. `then` runs once the transaction
   * that writes the outcome has committed, with that transaction (what was
   * heard in it); what it answers is answered (undefined when no checkout
   * was to open).
   *
   * `readsNothing`: what follows a change of the payment in its transaction
   * (the order's listeners) reads neither the order nor its payments. The
   * opened checkout's change is then held for the commit and goes with the
   * listeners' write and the COMMIT in one round trip (see
   * PaymentTransitions.changePendingHeld); a run again goes as usual.
   */
  async open<T = void>(
    order: OrderSnapshot,
    payment: PaymentRow,
    context: CheckoutContext,
    then?: (tx: Transaction) => T,
    { readsNothing = false }: { readsNothing?: boolean } = {},
  ): Promise<T | undefined> {
    if (payment.channel !== 'checkout' || payment.status !== 'pending' || !payment.reference)
      return undefined;
    const provider = this.providers.get(payment.method);
    const subaccount = context.business.paystack_subaccount_code;
    const outcome = await provider.openCheckout({
      reference: payment.reference,
      email: order.email,
      amountMinor: toMinorUnits(payment.amount),
      currency: payment.currency ?? '',
      callbackUrl: payment.callbackUrl,
      subaccount: typeof subaccount === 'string' && subaccount.trim() ? subaccount.trim() : null,
      channels: checkoutChannels(context.menu, payment.method),
      metadata: {
        order_uuid: order.uuid,
        order_reference: order.orderReference,
        reference: payment.reference,
      },
    });
    paymentsTotal.inc({ result: outcome.ok ? 'checkout_opened' : 'checkout_failed' });
    if (!outcome.ok) this.logger.warn(`Checkout ${payment.reference} not opened: ${outcome.error}`);
    const now = this.clock.nowMs();
    const set: PaymentChanges = outcome.ok
      ? {
          authorizationUrl: outcome.authorizationUrl,
          accessCode: outcome.accessCode,
          error: null,
          expiresAt: new Date(now + CHECKOUT_OPEN_MS),
          nextCheckAt: new Date(now + FIRST_CHECK_MS),
        }
      : { error: outcome.error };
    let firstRun = true;
    const tx = await this.bus.transaction(async (tx) => {
      const held = firstRun && readsNothing && outcome.ok && payment.orderUuid !== null;
      firstRun = false;
      // Under the order's payments lock, and only while still pending: a
      // webhook (or the owner) that settled it meanwhile stands, and so does
      // a newer checkout that replaced it. An opened checkout replaces the
      // order's other open ones. Nothing follows in this transaction.
      if (held) {
        await this.transitions.changePendingHeld(tx, payment, set, SYSTEM, { last: true });
      } else {
        await this.transitions.changePending(tx, payment, set, SYSTEM, {
          replacing: outcome.ok,
          last: true,
        });
      }
      return tx;
    });
    return then?.(tx);
  }

  /**
   * The guest's retry: a new checkout with a new reference for an order that
   * is not paid (409 when it is; 422 when it is not paid online). The
   * reference is taken first, in a transaction of its own, so two attempts
   * never share one.
   */
  async openAnother(order: OrderSnapshot, context: CheckoutContext): Promise<void> {
    const payment = await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, order.uuid);
      const all = await this.payments.ofOrders(tx.manager, [order.uuid]);
      const first = all[0];
      if (!first || first.channel !== 'checkout') {
        throw ApiError.unprocessable(
          `The order is paid by ${order.method}, which has no online checkout.`,
          [{ field: 'payment_processor', message: 'only online card payments open a checkout' }],
        );
      }
      const outstanding = new Money(order.amount).minus(sumPaid(all));
      if (outstanding.lte(0)) {
        throw ApiError.conflict('The order is already paid.', [
          { field: 'payment', message: 'the payment is paid' },
        ]);
      }
      return this.payments.insert(tx.manager, {
        orderUuid: order.uuid,
        businessUuid: order.businessUuid,
        method: first.method,
        channel: 'checkout',
        amount: outstanding.toFixed(2),
        currency: first.currency,
        reference: referenceOf(order.orderReference, all.length + 1),
        callbackUrl: first.callbackUrl,
      });
    });
    await this.open(order, payment, context);
  }

  /**
   * A card checkout for a share of a tab, from the tab page. Under the
   * share's lock, a share paid or with a payment still open is 409 before
   * the provider is asked. The checkout stays open 30 minutes (then the
   * share may be paid another way).
   */
  async openForShare(
    share: ShareChargeSnapshot,
    callbackUrl: string | undefined,
    context: CheckoutContext,
  ): Promise<PaymentRow> {
    if (!isPaymentOffered('paystack', context.menu.menu_checkout_payments_providers)) {
      throw ApiError.unprocessable('This menu does not take card payments.', [
        { field: 'method', message: 'paystack is not offered by this menu' },
      ]);
    }
    const callback = this.checkCallbackUrl(callbackUrl);
    const now = this.clock.nowMs();
    const payment = await this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, share.uuid);
      const all = await this.payments.ofShares(tx.manager, [share.uuid]);
      if (sumPaid(all).gte(share.amount)) {
        throw ApiError.conflict('The share is already paid.', [
          { field: 'share_uuid', message: 'nothing is left to pay' },
        ]);
      }
      const underWay = all.find(
        (row) =>
          row.status === 'pending' && (!row.expiresAt || new Date(row.expiresAt).getTime() > now),
      );
      if (underWay) {
        throw ApiError.conflict('A payment of this share is under way.', [
          { field: 'share_uuid', message: 'a payment is under way', payment_uuid: underWay.uuid },
        ]);
      }
      return this.payments.insert(tx.manager, {
        orderUuid: null,
        shareUuid: share.uuid,
        businessUuid: share.businessUuid,
        method: 'paystack',
        channel: 'checkout',
        amount: new Money(share.amount).toFixed(2),
        tipAmount: new Money(share.tip).toFixed(2),
        currency: share.currency,
        reference: referenceOf(share.reference, all.length + 1),
        callbackUrl: callback,
        expiresAt: new Date(now + SHARE_CHECKOUT_OPEN_MS),
        nextCheckAt: new Date(now + FIRST_CHECK_MS),
      });
    });
    const subaccount = context.business.paystack_subaccount_code;
    const outcome = await this.providers.get('paystack').openCheckout({
      reference: payment.reference!,
      email: share.email,
      amountMinor: toMinorUnits(new Money(payment.amount).plus(payment.tipAmount).toFixed(2)),
      currency: payment.currency ?? '',
      callbackUrl: payment.callbackUrl,
      subaccount: typeof subaccount === 'string' && subaccount.trim() ? subaccount.trim() : null,
      channels: checkoutChannels(context.menu, payment.method),
      metadata: { share_uuid: share.uuid, reference: payment.reference },
    });
    paymentsTotal.inc({ result: outcome.ok ? 'checkout_opened' : 'checkout_failed' });
    return this.bus.transaction(async (tx) => {
      await this.transitions.lock(tx, share.uuid);
      const locked = (await this.payments.findByUuid(tx.manager, payment.uuid, true))!;
      if (locked.status !== 'pending') return locked;
      return this.transitions.change(
        tx,
        locked,
        outcome.ok
          ? {
              authorizationUrl: outcome.authorizationUrl,
              accessCode: outcome.accessCode,
              error: null,
              // The tab page has no order payment block: the guest is sent on from here.
              nextAction: {
                type: 'checkout',
                authorization_url: outcome.authorizationUrl,
                expires_at: new Date(now + SHARE_CHECKOUT_OPEN_MS).toISOString(),
              },
            }
          : // Not opened: the share may be paid another way at once.
            { status: 'failed', error: outcome.error, nextCheckAt: null },
        SYSTEM,
      );
    });
  }

  /**
   * A callback_url must be an http(s) address on one of
   * PAYMENT_CALLBACK_ORIGINS (any origin outside production when unset).
   */
  private checkCallbackUrl(raw: string | undefined): string | null {
    if (raw === undefined || raw === '') return null;
    const refuse = (message: string) =>
      ApiError.validation([{ field: 'callback_url', message }], 'The callback_url is not allowed.');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw refuse('callback_url must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refuse('callback_url must be an absolute http(s) URL');
    }
    const allowed = this.config.paymentCallbackOrigins;
    if (allowed !== '*' && !allowed.includes(url.origin)) {
      throw refuse(
        allowed.length
          ? `callback_url must be on one of: ${allowed.join(', ')}`
          : 'no callback origins are configured (PAYMENT_CALLBACK_ORIGINS)',
      );
    }
    return url.toString();
  }
}

const SYSTEM = { actor: 'system', userUuid: null } as const;
