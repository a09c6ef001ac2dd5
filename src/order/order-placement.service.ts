import { Injectable } from '@nestjs/common';
import { UserContacts } from '../account';
import { orderLanguage } from '../entity';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { ordersPlaced } from '../metrics/metrics';
import { OutboxService } from '../outbox/outbox.service';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { formatMoney } from '../common/money';
import { requestHash } from './domain/request-hash';
import { isUuid } from '../common/uuid';
import { readMobileNumber } from '../common/phone-number';
import './domain/message-consent';
import { OrderTokens } from './domain/order-token';
import {
  OrderResponseDto,
  PlacedOrderResponseDto,
  toOrderResponse,
} from './dto/order-response.dto';
import { CheckoutContext, PaymentRow, PaymentService } from '../payment';
import { Transaction } from '../database/event-bus';
import { OrderEntity } from './entities';
import { PlaceOrderDto } from './dto/place-order.dto';
import { IdempotencyService } from './idempotency.service';
import { NotificationRepository } from '../notification';
import { businessContact, customerCopyMail, ownerAlertMail } from './order-mails';
import { NewOrder, NewOrderLine, newOrderUuid, OrderRepository } from './order.repository';
import { snapshotOf } from './order-snapshot';
import { OrderViews } from './order-views';
import { OrderPricer, toOrderPrice } from './order-pricer';
import { GuardFindings, PlacementGuards, PlacementState } from './placement-guards';
import { DiscountGuessLimit } from './discount-guess-limit';
import { PricedLine } from './domain/cart-pricing';
import { OrderEventBus, PublishOrderEvent } from './realtime/order-event-bus';
import { StockService } from '../stock';

const IDEMPOTENCY_SCOPE = 'order.place';
const RATE_LIMIT_BUCKET = 'order-place-ip';

function optionalText(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

/** The body as the service understands it: defaults applied, so equal orders fingerprint alike. */
function normalised(dto: PlaceOrderDto): Record<string, unknown> {
  return {
    ...dto,
    payment_processor: dto.payment_processor ?? 'cash',
    customer_requested_order_email_copy: dto.customer_requested_order_email_copy ?? false,
  };
}

/**
 * Guest order placement: every rule of the order body checked by the server.
 * Everything an order causes — the order, its lines, its first history entry,
 * the owner's notification, the mails and the stream event — is written in one
 * transaction: all of it or none.
 */
@Injectable()
export class OrderPlacementService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly orders: OrderRepository,
    private readonly notifications: NotificationRepository,
    private readonly outbox: OutboxService,
    private readonly rateLimit: RateLimitService,
    private readonly idempotency: IdempotencyService,
    private readonly events: OrderEventBus,
    private readonly tokens: OrderTokens,
    private readonly payments: PaymentService,
    private readonly views: OrderViews,
    private readonly userContacts: UserContacts,
    private readonly pricer: OrderPricer,
    private readonly guards: PlacementGuards,
    private readonly guessing: DiscountGuessLimit,
    private readonly stock: StockService,
  ) {}

  async placeOrder(
    dto: PlaceOrderDto,
    idempotencyHeader: string | undefined,
    clientIp: string,
    acceptLanguage?: (available: string[]) => string | false,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    const key = this.idempotency.parseKey(idempotencyHeader);
    // R46; before the transaction (the limiter may use its own connection).
    await this.rateLimit.consume(
      RATE_LIMIT_BUCKET,
      clientIp || 'unknown',
      this.config.rateLimitOrderPerMinute,
      60,
    );
    // R71: a code is counted as a guess until the guards find it known.
    const guess = await this.guessing.admit(clientIp, dto);
    const findings: GuardFindings = { unknownCode: false };
    const fingerprint = requestHash(normalised(dto));
    // R21: one transaction.
    const placing = this.events.transaction(async (manager, publish, tx) => {
      if (key) {
        const start = await this.idempotency.begin(manager, IDEMPOTENCY_SCOPE, key, fingerprint);
        if (start.kind === 'replay') {
          return { replayed: true, status: start.status, body: start.body as OrderResponseDto };
        }
      }
      const created = await this.createOrder(tx, dto, publish, findings, acceptLanguage);
      if (key) {
        await this.idempotency.complete(manager, IDEMPOTENCY_SCOPE, key, {
          status: 201,
          body: created.answer,
          resourceUuid: created.order.uuid,
        });
      }
      return { replayed: false, status: 201, body: created.answer, created };
    });
    const outcome = await placing.finally(() => this.guessing.settle(guess, findings.unknownCode));
    if (!outcome.replayed) ordersPlaced.inc();
    let body: OrderResponseDto;
    if (outcome.replayed) {
      // The stored answer predates the checkout: the order is read as it stands now.
      body = await this.asTheGuestSeesIt(outcome.body.uuid, outcome.body);
    } else {
      // An online payment's checkout is opened only now that the order has committed.
      const { answer, order, payment, context } = outcome.created!;
      if (payment.channel === 'checkout') {
        await this.payments.openCheckout(snapshotOf(order), payment, context);
        body = await this.asTheGuestSeesIt(order.uuid, answer);
      } else {
        body = answer;
      }
    }
    // The guest's token is derived from the order, never stored: the replay answers the same one.
    const placed: PlacedOrderResponseDto = {
      ...body,
      order_token: this.tokens.tokenFor(body.uuid),
    };
    return outcome.replayed
      ? new ApiResult(placed, 'Order already placed', undefined, outcome.status, {
          'Idempotent-Replayed': 'true',
        })
      : new ApiResult(placed, 'Order placed', undefined, outcome.status);
  }

  /**
   * The placement's answer read again as the order stands now, through the
   * guest's mapping (the guest placed it: no note of the owner's, no member
   * uuids in its history); `owner_note` stays in the answer's shape, null.
   */
  private async asTheGuestSeesIt(
    uuid: string,
    fallback: OrderResponseDto,
  ): Promise<OrderResponseDto> {
    const current = await this.orders.findByUuid(uuid);
    return current ? { ...(await this.views.guest(current)), owner_note: null } : fallback;
  }

  // R22: the server notifies the owner.
  /** The server notifies the owner at placement; this older step only confirms the order exists. */
  async acknowledgeNotify(uuid: string): Promise<{ uuid: string; order_reference: string }> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    return { uuid: order.uuid, order_reference: order.orderReference };
  }

  private async createOrder(
    tx: Transaction,
    dto: PlaceOrderDto,
    publish: PublishOrderEvent,
    findings: GuardFindings,
    acceptLanguage?: (available: string[]) => string | false,
  ): Promise<{
    answer: OrderResponseDto;
    order: OrderEntity;
    payment: PaymentRow;
    context: CheckoutContext;
  }> {
    const manager = tx.manager;
    // The placement's guards, in order; the first that fails refuses the order.
    const { state } = await this.guards.run(manager, dto, 'place', findings);
    const { menu, business } = state.orderable;
    const consentPhone = consentedPhone(dto, business.extraData);
    // How the payment is collected; refuses a currency or callback_url the provider cannot take.
    const plan = this.payments.plan({
      processor: state.processor,
      menu: menu.extraData,
      callbackUrl: dto.callback_url,
    });
    // The order, its lines and its first history entry, written in one statement.
    const {
      order: stored,
      lines,
      events,
    } = await this.orders.insertPlacedOrder(
      manager,
      {
        ...newOrderOf(state, dto, plan.currency),
        customerPhoneNumber: consentPhone ?? optionalText(dto.customer_phone_number),
        // R118: the language of the guest's mails, among the menu's.
        language: orderLanguage(menu.extraData, dto.language, acceptLanguage),
      },
      state.lines.map(newLineOf),
      'guest',
    );
    await this.pricer.redeem(manager, state.price!, stored.uuid, dto.customer_email_address);
    const payment = await this.payments.start(tx, snapshotOf(stored), plan);
    // The order is new in this transaction: what was just inserted is all of its lines, history and payments.
    const answer = toOrderResponse(stored, {
      lines,
      events,
      payments: { payments: [payment], refunds: [] },
    });
    await this.tellTheBusiness(tx, answer, stored, state);
    await publish('order.created', stored);
    if (consentPhone && dto.message_consent) {
      await tx.emit('order.message_consent', {
        orderUuid: stored.uuid,
        businessUuid: stored.businessUuid,
        channel: dto.message_consent.channel,
        phone: consentPhone,
        consentedAt: stored.createdAt,
      });
    }
    // The portions of stocked items, late so their rows stay locked only until the commit.
    await this.stock.takeForOrder(tx, {
      orderUuid: stored.uuid,
      businessUuid: business.uuid,
      menuUuid: menu.uuid,
      ownerUuid: business.ownedBy,
      businessExtra: business.extraData,
      requestedTime: state.handOver.requestedTime,
      lines: state.lines.map((line) => ({
        position: line.position,
        itemUuid: line.itemUuid,
        quantity: line.quantity,
        extraData: state.itemsByUuid.get(line.itemUuid)?.extraData ?? null,
      })),
      actor: 'guest',
      byUuid: null,
    });
    // Last, so the slot's lock is held only until the commit.
    await this.guards.holdSlot(manager, state);
    return {
      answer,
      order: stored,
      payment,
      context: { menu: menu.extraData, business: business.extraData },
    };
  }

  /** The owner's (and team's) notification, the owner's mail and the guest's copy, with the order. */
  private async tellTheBusiness(
    tx: Transaction,
    answer: OrderResponseDto,
    stored: OrderEntity,
    state: PlacementState,
  ): Promise<void> {
    const { manager } = tx;
    const contact = businessContact(state.orderable.business, state.orderable.menu);
    const currencyText = answer.currency ? ` ${answer.currency}` : '';
    const count = answer.items.reduce((sum, line) => sum + line.quantity, 0);
    await this.notifications.insert(manager, {
      userUuid: stored.ownerUuid,
      kind: 'order.created',
      title: `New order ${answer.order_reference}`,
      body: `${count} item${count === 1 ? '' : 's'}, total ${answer.amount}${currencyText}, at ${contact.name}`,
      data: {
        order_uuid: answer.uuid,
        order_reference: answer.order_reference,
        business_uuid: answer.business_uuid,
        menu_uuid: answer.menu_uuid,
        amount: answer.amount,
        currency: answer.currency,
      },
    });
    const owner = await this.userContacts.contactOf(manager, stored.ownerUuid);
    if (owner) await this.outbox.enqueueMail(manager, ownerAlertMail(answer, contact, owner.email));
    if (answer.customer_requested_order_email_copy) {
      await this.outbox.enqueueMail(manager, customerCopyMail(answer, contact));
    }
  }
}

// R100: guest messages are opt-in; with consent the phone must be a mobile number, stored in E.164.
/**
 * With `message_consent`, the guest's phone as E.164, read as E.164 or in the
 * national form of the business's `country_of_registration`; 422 on
 * `customer_phone_number` when it is not a mobile number. Without consent,
 * null: the phone is kept as sent.
 */
function consentedPhone(
  dto: PlaceOrderDto,
  business: Record<string, unknown> | null,
): string | null {
  if (!dto.message_consent) return null;
  const country = business?.country_of_registration;
  const phone = dto.customer_phone_number
    ? readMobileNumber(dto.customer_phone_number, typeof country === 'string' ? country : null)
    : null;
  if (!phone) {
    throw ApiError.unprocessable('Messages need a mobile number to reach.', [
      {
        field: 'customer_phone_number',
        message:
          'customer_phone_number must be a mobile number, in E.164 (+2348031234567) or in the national form of the business’s country, when message_consent is sent.',
      },
    ]);
  }
  return phone;
}

/** The order row of a body the guards accepted. */
function newOrderOf(state: PlacementState, dto: PlaceOrderDto, currency: string | null): NewOrder {
  const { menu, business } = state.orderable;
  const price = state.price!;
  const zone = state.handOver.zone;
  // An order that costs nothing is paid at placement; no checkout opens for it.
  const free = price.total.lte(0);
  return {
    uuid: newOrderUuid(),
    menuUuid: menu.uuid,
    businessUuid: business.uuid,
    ownerUuid: business.ownedBy,
    paymentProcessor: state.processor,
    amount: formatMoney(price.total),
    currency,
    customerEmailAddress: dto.customer_email_address,
    customerPhoneNumber: optionalText(dto.customer_phone_number),
    customerRequestedOrderEmailCopy: dto.customer_requested_order_email_copy ?? false,
    generalNote: optionalText(dto.general_note),
    deliveryData: dto.delivery_data ? { ...dto.delivery_data } : null,
    onpremiseData: dto.onpremise_data ? { ...dto.onpremise_data } : null,
    paymentState: free ? 'paid' : 'unpaid',
    paymentStatus: free ? 'paid' : 'unpaid',
    fulfilmentType: state.handOver.type,
    requestedTime: state.handOver.requestedTime,
    price: toOrderPrice(price),
    deliveryZone: zone && { key: zone.key, title: zone.title },
    deliveryEtaMinutes: zone?.etaMinutes ?? null,
  };
}

/** A priced line as the order keeps it: a snapshot of the item and its options. */
function newLineOf(line: PricedLine): NewOrderLine {
  return {
    position: line.position,
    itemUuid: line.itemUuid,
    titleName: line.titleName === null ? null : line.titleName.slice(0, 255),
    category: line.category,
    unitPriceAmount: formatMoney(line.unitPrice),
    options: line.options.map((option) => ({ ...option })),
    quantity: line.quantity,
    lineTotal: formatMoney(line.lineTotal),
    itemNote: line.itemNote,
    allergens: line.allergens,
  };
}
