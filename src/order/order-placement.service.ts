import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { UserContacts } from '../account';
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
import { OrderTokens } from './domain/order-token';
import {
  OrderResponseDto,
  PlacedOrderResponseDto,
  toGuestHistory,
  toOrderResponse,
} from './dto/order-response.dto';
import { toPaymentResponse } from '../payment';
import { OrderEntity, OrderEventEntity } from './entities';
import { OrderPayments } from './order-payments';
import { PlaceOrderDto } from './dto/place-order.dto';
import { IdempotencyService } from './idempotency.service';
import { NotificationRepository } from '../notification';
import { businessContact, customerCopyMail, ownerAlertMail } from './order-mails';
import { OrderRepository } from './order.repository';
import { OrderPricer, toOrderPrice } from './order-pricer';
import { GuardFindings, PlacementGuards } from './placement-guards';
import { DiscountGuessLimit } from './discount-guess-limit';
import { OrderEventBus, PublishOrderEvent } from './realtime/order-event-bus';

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
    private readonly payments: OrderPayments,
    private readonly userContacts: UserContacts,
    private readonly pricer: OrderPricer,
    private readonly guards: PlacementGuards,
    private readonly guessing: DiscountGuessLimit,
  ) {}

  async placeOrder(
    dto: PlaceOrderDto,
    idempotencyHeader: string | undefined,
    clientIp: string,
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
    const placing = this.events.transaction(async (manager, publish) => {
      if (key) {
        const start = await this.idempotency.begin(manager, IDEMPOTENCY_SCOPE, key, fingerprint);
        if (start.kind === 'replay') {
          return { replayed: true, status: start.status, body: start.body as OrderResponseDto };
        }
      }
      const created = await this.createOrder(manager, dto, publish, findings);
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
      // The stored answer predates the checkout: the payment and its history are read as they stand now.
      const current = await this.orders.findByUuid(outcome.body.uuid);
      const history = current ? (await this.orders.eventsOf([current.uuid])).get(current.uuid) : [];
      body = current
        ? withPayment({ ...outcome.body, history: [] }, current, history ?? [])
        : outcome.body;
    } else {
      // An online payment's checkout is opened only now that the order has committed.
      const { answer, order, businessExtra } = outcome.created!;
      const opened = await this.payments.openCheckout(order, businessExtra);
      body = opened ? withPayment(answer, opened.order, opened.events) : answer;
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

  // R22: the server notifies the owner.
  /** The server notifies the owner at placement; this older step only confirms the order exists. */
  async acknowledgeNotify(uuid: string): Promise<{ uuid: string; order_reference: string }> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    return { uuid: order.uuid, order_reference: order.orderReference };
  }

  private async createOrder(
    manager: EntityManager,
    dto: PlaceOrderDto,
    publish: PublishOrderEvent,
    findings: GuardFindings,
  ): Promise<{
    answer: OrderResponseDto;
    order: OrderEntity;
    businessExtra: Record<string, unknown>;
  }> {
    // The placement's guards, in order; the first that fails refuses the order.
    const { state } = await this.guards.run(manager, dto, 'place', findings);
    const { processor, handOver, lines: pricedLines } = state;
    const { menu, business } = state.orderable;
    const price = state.price!;

    // How the payment is collected; refuses a currency or callback_url the provider cannot take.
    const payment = this.payments.plan({
      processor,
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
        menuUuid: menu.uuid,
        businessUuid: business.uuid,
        ownerUuid: business.ownedBy,
        paymentProcessor: processor,
        amount: formatMoney(price.total),
        currency: payment.currency,
        customerEmailAddress: dto.customer_email_address,
        customerPhoneNumber: optionalText(dto.customer_phone_number),
        customerRequestedOrderEmailCopy: dto.customer_requested_order_email_copy ?? false,
        generalNote: optionalText(dto.general_note),
        deliveryData: dto.delivery_data ? { ...dto.delivery_data } : null,
        onpremiseData: dto.onpremise_data ? { ...dto.onpremise_data } : null,
        paymentCollect: payment.collect,
        paymentInstructions: payment.instructions,
        paymentCallbackUrl: payment.callbackUrl,
        paymentAttempts: payment.attempts,
        fulfilmentType: handOver.type,
        requestedTime: handOver.requestedTime,
        price: toOrderPrice(price),
      },
      pricedLines.map((line) => ({
        position: line.position,
        itemUuid: line.itemUuid,
        titleName: line.titleName === null ? null : line.titleName.slice(0, 255),
        category: line.category,
        unitPriceAmount: formatMoney(line.unitPrice),
        options: line.options.map((option) => ({ ...option })),
        quantity: line.quantity,
        lineTotal: formatMoney(line.lineTotal),
        itemNote: line.itemNote,
      })),
      'guest',
    );
    await this.pricer.redeem(manager, price, stored.uuid, dto.customer_email_address);
    // The order is new in this transaction: what was just inserted is all of its lines and history.
    const answer = toOrderResponse(stored, lines, events);

    const contact = businessContact(business, menu);
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
    await publish('order.created', stored);
    // Last, so the slot's lock is held only until the commit.
    await this.guards.holdSlot(manager, state);
    return { answer, order: stored, businessExtra: business.extraData };
  }
}

/**
 * The answer with the order's payment as it stands now, and any history made
 * since as the guest may see it (a replay may come after the team acted: no
 * owner's note, no uuid of who acted).
 */
function withPayment(
  answer: OrderResponseDto,
  order: OrderEntity,
  events: readonly OrderEventEntity[],
): OrderResponseDto {
  return {
    ...answer,
    payment_status: order.paymentStatus,
    payment: toPaymentResponse(order),
    history: [...answer.history, ...toGuestHistory(events)],
    updated_at: new Date(order.updatedAt).toISOString(),
  };
}
