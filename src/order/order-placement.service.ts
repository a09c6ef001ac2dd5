import { Injectable } from '@nestjs/common';
import { orderLanguage } from '../entity';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { ordersPlaced } from '../metrics/metrics';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { requestHash } from './domain/request-hash';
import { isUuid } from '../common/uuid';
import './domain/message-consent';
import { OrderTokens } from './domain/order-token';
import {
  OrderResponseDto,
  PlacedOrderResponseDto,
  toOrderResponse,
} from './dto/order-response.dto';
import { PaymentService } from '../payment';
import { Transaction } from '../database/event-bus';
import { together } from '../database/pipelined-client';
import { CommittedPlacement, PlacementAnswers } from './placement-answers';
import { PlaceOrderDto } from './dto/place-order.dto';
import { IdempotencyService } from './idempotency.service';
import { OrderRepository } from './order.repository';
import { PlacementNotices } from './placement-notices';
import { consentedPhone, newLineOf, newOrderOf, optionalText } from './placement-rows';
import { snapshotOf } from './order-snapshot';
import { OrderViews } from './order-views';
import { OrderPricer } from './order-pricer';
import { GuardFindings, PlacementGuards } from './placement-guards';
import { DiscountGuessLimit } from './discount-guess-limit';
import { OrderEventBus, PublishOrderEvent, publishCreated } from './realtime/order-event-bus';
import { StockService } from '../stock';
import { AccessPolicy, BusinessRole } from '../team';
import { AuthUser } from '../auth/auth.decorator';
import { OrderChannel } from './entities/order.entity';
import { StaffOrderDto } from './dto/staff-order.dto';
import { TabRounds } from './tabs/tab-rounds';
import { TabTokens } from './tabs/tab-tokens';
import { OrderStatusMoves } from './order-status-moves';
import { OrderFulfilment } from './order-fulfilment';
import { UpdateOrderDto } from './dto/update-order.dto';

const IDEMPOTENCY_SCOPE = 'order.place';
const STAFF_IDEMPOTENCY_SCOPE = 'order.staff';

/** Who places an order: the guest, or a member of the team on their own route. */
interface Origin {
  channel: OrderChannel;
  /** The member's uuid and role; absent for a guest. */
  member?: { userUuid: string; role: BusinessRole; businessUuid: string };
  accept: boolean;
  tabUuid?: string;
  /** The guest's Accept-Language, matched against the menu's languages (R118). */
  acceptLanguage?: (available: string[]) => string | false;
}

const GUEST: Origin = { channel: 'online', accept: false };
const RATE_LIMIT_BUCKET = 'order-place-ip';

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
    private readonly rateLimit: RateLimitService,
    private readonly idempotency: IdempotencyService,
    private readonly events: OrderEventBus,
    private readonly tokens: OrderTokens,
    private readonly payments: PaymentService,
    private readonly views: OrderViews,
    private readonly notices: PlacementNotices,
    private readonly pricer: OrderPricer,
    private readonly guards: PlacementGuards,
    private readonly guessing: DiscountGuessLimit,
    private readonly stock: StockService,
    private readonly access: AccessPolicy,
    private readonly rounds: TabRounds,
    private readonly tabTokens: TabTokens,
    private readonly statusMoves: OrderStatusMoves,
    private readonly fulfilment: OrderFulfilment,
    private readonly answers: PlacementAnswers,
  ) {}

  async placeOrder(
    dto: PlaceOrderDto,
    idempotencyHeader: string | undefined,
    clientIp: string,
    acceptLanguage?: (available: string[]) => string | false,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    // R46; before the transaction (the limiter may use its own connection).
    await this.rateLimit.consume(
      RATE_LIMIT_BUCKET,
      clientIp || 'unknown',
      this.config.rateLimitOrderPerMinute,
      60,
    );
    return this.place(
      dto,
      idempotencyHeader,
      clientIp,
      { ...GUEST, acceptLanguage },
      IDEMPOTENCY_SCOPE,
    );
  }

  /**
   * An order the team takes: the guest's rules but the opening hours
   * and the switch, the member recorded as its author, placed accepted when
   * asked, and a round of a tab when it names one or is for a table whose
   * tab is open.
   */
  async placeStaffOrder(
    user: AuthUser,
    businessUuid: string,
    dto: StaffOrderDto,
    idempotencyHeader: string | undefined,
    clientIp: string,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    // R108: owner, manager and staff take orders; a business they have no part in is 404.
    const role = await this.access.requireAccess(user, 'order.take', businessUuid, {
      noPart: 'not_found',
      message: 'The business does not exist.',
    });
    const body: PlaceOrderDto = {
      ...dto,
      customer_email_address: dto.customer_email_address ?? '',
      // No address, no copy.
      customer_requested_order_email_copy: dto.customer_email_address
        ? dto.customer_requested_order_email_copy
        : false,
    };
    delete (body as { channel?: unknown }).channel;
    delete (body as { accept?: unknown }).accept;
    delete (body as { tab_uuid?: unknown }).tab_uuid;
    const origin: Origin = {
      channel: dto.channel,
      member: { userUuid: user.uuid, role, businessUuid: businessUuid.toLowerCase() },
      accept: dto.accept === true,
      tabUuid: dto.tab_uuid,
    };
    return this.place(body, idempotencyHeader, clientIp, origin, STAFF_IDEMPOTENCY_SCOPE, {
      ...normalised(body),
      channel: dto.channel,
      accept: origin.accept,
      tab_uuid: dto.tab_uuid ?? null,
      by: user.uuid,
    });
  }

  private async place(
    dto: PlaceOrderDto,
    idempotencyHeader: string | undefined,
    clientIp: string,
    origin: Origin,
    scope: string,
    fingerprinted: Record<string, unknown> = normalised(dto),
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    const key = this.idempotency.parseKey(idempotencyHeader);
    // R71: a code is counted as a guess until the guards find it known.
    const guess = await this.guessing.admit(clientIp, dto);
    const findings: GuardFindings = { unknownCode: false };
    const fingerprint = requestHash(fingerprinted);
    // R21: one transaction.
    const placing = this.events.transaction(async (manager, publish, tx) => {
      // The guards' first read (the menu, its business and the cart's items)
      // is issued with the key's claim, so the two leave in one write with
      // the transaction's BEGIN. A replay or a refused key does not use it;
      // a failure of the read is the guards' to report, once the key is
      // claimed (this catch only keeps it from going unhandled meanwhile).
      const menuRead = this.guards.readMenu(manager, dto);
      if (key) {
        const [start] = await together(
          this.idempotency.begin(manager, scope, key, fingerprint),
          menuRead.catch(() => null),
        );
        if (start.kind === 'replay') {
          return { replayed: true, status: start.status, body: start.body as OrderResponseDto };
        }
      }
      const created = await this.createOrder(tx, dto, publish, findings, origin, menuRead);
      if (key) {
        await this.idempotency.complete(manager, scope, key, {
          status: 201,
          body: created.answer,
          resourceUuid: created.order.uuid,
        });
      }
      return { replayed: false, status: 201, body: created.answer, created };
    });
    const outcome = await placing.finally(() => this.guessing.settle(guess, findings.unknownCode));
    if (!outcome.replayed) ordersPlaced.inc();
    const byMember = origin.member !== undefined;
    const body = outcome.replayed
      ? await this.answers.replayed(byMember, outcome.body)
      : await this.answers.afterCommit(byMember, outcome.created!);
    if (!origin.member) {
      // R107: a guest's answers never name the people who work there.
      delete body.created_by;
    }
    // The guest's token is derived from the order, never stored: the replay answers the same one.
    const placed: PlacedOrderResponseDto = {
      ...body,
      order_token: this.tokens.tokenFor(body.uuid),
      ...(body.tab_uuid
        ? { tab: { uuid: body.tab_uuid, tab_token: this.tabTokens.tokenFor(body.tab_uuid) } }
        : {}),
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
    tx: Transaction,
    dto: PlaceOrderDto,
    publish: PublishOrderEvent,
    findings: GuardFindings,
    origin: Origin,
    menuRead: ReturnType<PlacementGuards['readMenu']>,
  ): Promise<CommittedPlacement> {
    const manager = tx.manager;
    const { member } = origin;
    // The placement's guards, in order; the first that fails refuses the order.
    const { state } = await this.guards.run(
      manager,
      dto,
      'place',
      findings,
      member !== undefined,
      menuRead,
    );
    const { menu, business } = state.orderable;
    const consentPhone = consentedPhone(dto, business.extraData);
    if (member && business.uuid !== member.businessUuid) {
      throw ApiError.notFound('The menu does not exist or is not open for orders.');
    }
    // How the payment is collected; refuses a currency or callback_url the provider cannot take.
    const plan = this.payments.plan({
      processor: state.processor,
      menu: menu.extraData,
      callbackUrl: dto.callback_url,
    });
    // The table's tab this order is a round of, if any (opened by this order when there is none).
    const round = await this.rounds.roundFor(manager, {
      businessUuid: business.uuid,
      ownerUuid: business.ownedBy,
      menuUuid: menu.uuid,
      menuExtra: menu.extraData,
      fulfilmentType: state.handOver.type,
      table: dto.onpremise_data?.customer_onpremise_location ?? null,
      currency: plan.currency,
      tabToken: dto.tab_token,
      staff: member && { userUuid: member.userUuid, tabUuid: origin.tabUuid },
    });
    // What the order's announcement reads of the business (the owner's
    // address; the webhook endpoints, read by the listeners of
    // `order.placing`) is issued now without waiting, so it leaves in the
    // same write as the order's insert rather than in a round trip after it.
    const ownerAhead = this.notices.readOwnerAhead(tx, business.ownedBy);
    await tx.emit('order.placing', { ownerUuid: business.ownedBy, businessUuid: business.uuid });
    // The order, its lines and its first history entry, written in one statement.
    const placed = await this.orders.insertPlacedOrder(
      manager,
      {
        ...newOrderOf(state, dto, plan.currency, round?.tab ?? null),
        customerPhoneNumber: consentPhone ?? optionalText(dto.customer_phone_number),
        // R118: the language of the guest's mails, among the menu's.
        language: orderLanguage(menu.extraData, dto.language, origin.acceptLanguage),
        channel: origin.channel,
        createdBy: member?.userUuid ?? null,
      },
      state.lines.map(newLineOf),
      member?.role ?? 'guest',
    );
    let stored = placed.order;
    const { lines, events } = placed;
    await this.pricer.redeem(manager, state.price!, stored.uuid, dto.customer_email_address);
    // A round is paid with its tab (its shares); an order on its own gets its
    // first payment. Only an order placed accepted is read back before the commit.
    const readBack = member !== undefined && origin.accept;
    const payment = round
      ? null
      : await this.payments.start(tx, snapshotOf(stored), plan, readBack);
    // The order is new in this transaction: what was just inserted is all of its lines, history and payments.
    let answer = toOrderResponse(stored, {
      lines,
      events,
      payments: { payments: payment ? [payment] : [], refunds: [] },
    });
    // What either sends now (their reads went with the insert) leaves in one write.
    await together(
      this.notices.tellTheBusiness(tx, answer, stored, state, ownerAhead),
      publishCreated(tx, stored, answer),
    );
    if (consentPhone && dto.message_consent) {
      await tx.emit('order.message_consent', {
        orderUuid: stored.uuid,
        businessUuid: stored.businessUuid,
        channel: dto.message_consent.channel,
        phone: consentPhone,
        consentedAt: stored.createdAt,
      });
    }
    // The slot's place, then the portions of stocked items: both taken by the
    // last statement before the commit, in that order (every placement
    // locks a slot's row before stock rows).
    await this.guards.holdSlot(manager, state);
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
      actor: member ? member.role : 'guest',
      byUuid: member?.userUuid ?? null,
    });
    if (member && origin.accept) {
      // R107: placed accepted, through the one status move (its tickets made at once).
      const readyAt = await this.fulfilment.readyTime(
        manager,
        stored,
        {} as UpdateOrderDto,
        'accepted',
      );
      stored = await this.statusMoves.move(
        tx,
        stored,
        'accepted',
        { actor: member.role, userUuid: member.userUuid },
        {
          changes: readyAt ? { estimatedReadyAt: readyAt } : {},
          history: readyAt
            ? [
                {
                  field: 'estimated_ready_at',
                  fromValue: null,
                  toValue: readyAt.toISOString(),
                  actorUuid: member.userUuid,
                  actor: member.role,
                },
              ]
            : [],
          kinds: readyAt ? ['ready_time'] : [],
        },
      );
      answer = await this.views.owner(stored, manager);
    }
    return {
      answer,
      order: stored,
      lines,
      events,
      payment,
      context: { menu: menu.extraData, business: business.extraData },
    };
  }
}
