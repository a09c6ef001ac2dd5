import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EntityService } from '../entity';
import { ApiError } from '../http/api-error';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import {
  GuestOrderResponseDto,
  ManualPaymentStatus,
  OrderActor,
  OrderEntity,
  OrderEventBus,
  OrderEventEntity,
  offeredProviderEntry,
  OrderPayments,
  PaymentPlan,
  PaymentPlanInput,
  PublishOrderEvent,
} from '../order';
import { menuCurrencyCode, toMinorUnits } from './domain/currency';
import { SETTLED_STATES } from './domain/payment-state';
import { OrderAccess } from './order-access';
import { paymentsTotal } from './payment-metrics';
import { PaymentChanges, PaymentTransitions } from './payment-transitions.service';
import { PaymentRepository } from './payment.repository';
import { PaymentProviders } from './providers/payment-providers';

/**
 * How an order's payment is collected, and its checkouts: planned inside the
 * placement transaction, opened after the order has committed (never an
 * outside call inside a transaction), the outcome written in a short
 * transaction of its own under the order's row lock.
 */
@Injectable()
export class PaymentCheckoutService extends OrderPayments {
  private readonly logger = new Logger('Payments');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly providers: PaymentProviders,
    private readonly payments: PaymentRepository,
    private readonly events: OrderEventBus,
    private readonly transitions: PaymentTransitions,
    private readonly entities: EntityService,
    private readonly access: OrderAccess,
    private readonly clock: Clock,
  ) {
    super();
  }

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
        collect: 'offline',
        instructions: provider.instructions(entry),
        callbackUrl: null,
        currency,
        attempts: 0,
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
      collect: 'online',
      instructions: null,
      callbackUrl: this.checkCallbackUrl(input.callbackUrl),
      currency: code,
      attempts: 1,
    };
  }

  collectedOnline(order: OrderEntity): boolean {
    return (
      order.paymentCollect === 'online' &&
      this.providers.get(order.paymentProcessor).collect === 'online'
    );
  }

  async recordManualPayment(
    manager: EntityManager,
    publish: PublishOrderEvent,
    order: OrderEntity,
    status: ManualPaymentStatus,
    by: { actor: OrderActor; userUuid: string },
  ): Promise<OrderEntity> {
    const changes: PaymentChanges =
      status === 'paid'
        ? { paymentState: 'paid', amountPaid: order.amount, paidAt: this.clock.now() }
        : { paymentState: 'refunded', amountRefunded: order.amountPaid };
    const result = await this.transitions.apply(manager, publish, order, changes, {
      ...by,
      notify: false,
    });
    return result.order;
  }

  async openCheckout(
    order: OrderEntity,
    businessExtra: Record<string, unknown>,
  ): Promise<{ order: OrderEntity; events: OrderEventEntity[] } | null> {
    if (order.paymentCollect !== 'online' || order.paymentAttempts < 1) return null;
    return this.open(order, `${order.orderReference}-${order.paymentAttempts}`, businessExtra);
  }

  /** A further checkout: its reference is taken first, so two attempts never share one. */
  private async openAnother(
    order: OrderEntity,
    businessExtra: Record<string, unknown>,
  ): Promise<{ order: OrderEntity; events: OrderEventEntity[] } | null> {
    const reference = await this.events.transaction(async (manager) => {
      const locked = await this.payments.lockOrder(manager, order.uuid);
      if (!locked || SETTLED_STATES.includes(locked.paymentState)) return null;
      const updated = await this.payments.updatePayment(manager, locked.uuid, {
        paymentAttempts: locked.paymentAttempts + 1,
      });
      return `${updated.orderReference}-${updated.paymentAttempts}`;
    });
    return reference ? this.open(order, reference, businessExtra) : null;
  }

  /** The channels the menu's entry for the order's provider names, checked when the menu was written. */
  private async checkoutChannels(order: OrderEntity): Promise<string[] | null> {
    const orderable = await this.entities.findOrderableMenu(order.menuUuid, []);
    const entry = offeredProviderEntry(
      orderable?.menu.extraData.menu_checkout_payments_providers,
      order.paymentProcessor,
    );
    const channels = entry?.channels;
    return Array.isArray(channels) &&
      channels.length > 0 &&
      channels.every((channel) => typeof channel === 'string')
      ? (channels as string[])
      : null;
  }

  /**
   * Asks the provider for a checkout (outside any transaction) and stores the
   * outcome under the order's row lock.
   */
  private async open(
    order: OrderEntity,
    reference: string,
    businessExtra: Record<string, unknown>,
  ): Promise<{ order: OrderEntity; events: OrderEventEntity[] }> {
    const provider = this.providers.get(order.paymentProcessor);
    const subaccount = businessExtra.paystack_subaccount_code;
    const outcome = await provider.openCheckout({
      reference,
      email: order.customerEmailAddress,
      amountMinor: toMinorUnits(order.amount),
      currency: order.currency ?? '',
      callbackUrl: order.paymentCallbackUrl,
      subaccount: typeof subaccount === 'string' && subaccount.trim() ? subaccount.trim() : null,
      channels: await this.checkoutChannels(order),
      metadata: {
        order_uuid: order.uuid,
        order_reference: order.orderReference,
        reference,
      },
    });
    paymentsTotal.inc({ result: outcome.ok ? 'checkout_opened' : 'checkout_failed' });
    if (!outcome.ok) {
      this.logger.warn(`Checkout ${reference} not opened: ${outcome.error}`);
    }
    return this.events.transaction(async (manager, publish) => {
      const locked = (await this.payments.lockOrder(manager, order.uuid))!;
      // A webhook for an earlier checkout may have settled the order meanwhile.
      if (SETTLED_STATES.includes(locked.paymentState)) return { order: locked, events: [] };
      return this.transitions.apply(
        manager,
        publish,
        locked,
        outcome.ok
          ? {
              paymentState: 'pending',
              paymentReference: reference,
              paymentAuthorizationUrl: outcome.authorizationUrl,
              paymentAccessCode: outcome.accessCode,
              paymentError: null,
            }
          : { paymentError: outcome.error },
        { actor: 'system', userUuid: null },
      );
    });
  }

  /**
   * The guest's retry: a new checkout with a new reference for an order that
   * is not paid. 409 when it is paid; 422 when it is not paid online.
   */
  async retryCheckout(
    uuid: string,
    token: string | undefined,
    ip: string,
  ): Promise<GuestOrderResponseDto> {
    const order = await this.access.guestOrder(uuid, token);
    await this.access.limitGuest('checkout', order.uuid, ip);
    if (SETTLED_STATES.includes(order.paymentState)) {
      throw ApiError.conflict(`The order is already ${order.paymentState}.`, [
        { field: 'payment', message: `the payment is ${order.paymentState}` },
      ]);
    }
    if (order.paymentCollect !== 'online') {
      throw ApiError.unprocessable(
        `The order is paid by ${order.paymentProcessor}, which has no online checkout.`,
        [{ field: 'payment_processor', message: 'only online card payments open a checkout' }],
      );
    }
    const orderable = await this.entities.findOrderableMenu(order.menuUuid, []);
    if (!orderable) {
      throw ApiError.unprocessable('The menu of this order no longer takes payments.', [
        { field: 'menu_uuid', message: 'the menu or its business is no longer public' },
      ]);
    }
    const opened = await this.openAnother(order, orderable.business.extraData);
    return this.access.guestDetail(opened?.order ?? order);
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
