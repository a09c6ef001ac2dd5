import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Money, parsePrice } from '../common/money';
import { isUuid } from '../common/uuid';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EntityService } from '../entity';
import { ApiError } from '../http/api-error';
import {
  CheckoutContext,
  CreatePaymentDto,
  PaymentRecordResponseDto,
  PaymentRow,
  PaymentService,
  SETTLED_STATES,
  toPaymentRecords,
} from '../payment';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { AccessPolicy } from '../team';
import { OrderTokens } from './domain/order-token';
import { GuestOrderResponseDto } from './dto/guest-order-response.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { RefundOrderDto } from './dto/refund-order.dto';
import { OrderEntity } from './entities';
import { OrderRepository } from './order.repository';
import { snapshotOf } from './order-snapshot';
import { OrderViews } from './order-views';

/** Who asked about an order: its guest (order token) or its business's owner or team (Bearer). */
type Viewer = 'guest' | 'owner';

/** A guest's action that calls the provider on the restaurant's account, limited per order and address. */
type GuestAction = 'verify' | 'checkout' | 'charge';

/**
 * The routes about an order's payments: the guest's new checkout, a charge
 * from the order page and its OTP, the verify call of a callback page, and
 * the business's refunds. The payment module does the work; the answers are
 * the order as its reader sees it.
 */
@Injectable()
export class OrderPaymentsService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly orders: OrderRepository,
    private readonly tokens: OrderTokens,
    private readonly limiter: RateLimitService,
    private readonly policy: AccessPolicy,
    private readonly payments: PaymentService,
    private readonly entities: EntityService,
    private readonly views: OrderViews,
  ) {}

  /** A new card checkout: 409 when the order is paid; 422 when it is not paid online. */
  async retryCheckout(
    uuid: string,
    token: string | undefined,
    ip: string,
  ): Promise<GuestOrderResponseDto> {
    const order = await this.guestOrder(uuid, token);
    await this.limitGuest('checkout', order.uuid, ip);
    if (SETTLED_STATES.includes(order.paymentState)) {
      throw ApiError.conflict(`The order is already ${order.paymentState}.`, [
        { field: 'payment', message: `the payment is ${order.paymentState}` },
      ]);
    }
    await this.payments.openAnotherCheckout(snapshotOf(order), await this.context(order));
    return this.views.guest(await this.reread(order));
  }

  /** A charge by USSD, mobile money or bank transfer: the payment with what the guest does next. */
  async createPayment(
    uuid: string,
    token: string | undefined,
    dto: CreatePaymentDto,
    ip: string,
  ): Promise<PaymentRecordResponseDto> {
    const order = await this.guestOrder(uuid, token);
    await this.limitGuest('charge', order.uuid, ip);
    const payment = await this.payments.createCharge(
      snapshotOf(order),
      dto,
      await this.context(order),
    );
    return this.record(order, payment);
  }

  async submitOtp(
    uuid: string,
    paymentUuid: string,
    token: string | undefined,
    otp: string,
    ip: string,
  ): Promise<PaymentRecordResponseDto> {
    const order = await this.guestOrder(uuid, token);
    await this.limitGuest('charge', order.uuid, ip);
    if (!isUuid(paymentUuid)) throw ApiError.notFound('The payment does not exist.');
    const payment = await this.payments.submitOtp(
      snapshotOf(order),
      paymentUuid.toLowerCase(),
      otp,
    );
    return this.record(order, payment);
  }

  /** Asks the provider whether the order's latest payment was paid; the guest's or the business's view. */
  async verifyPayment(
    uuid: string,
    token: string | undefined,
    user: AuthUser | undefined,
    ip: string,
  ): Promise<GuestOrderResponseDto | OrderResponseDto> {
    const { order, viewer } = await this.guestOrOwnerOrder(uuid, token, user);
    if (viewer === 'guest') await this.limitGuest('verify', order.uuid, ip);
    await this.payments.verify(snapshotOf(order));
    const current = await this.reread(order);
    return viewer === 'owner' ? this.views.owner(current) : this.views.guest(current);
  }

  // R32: refunds.
  /** Refunds the order's payments, in full or in part (the business's owner or a manager). */
  async refundOrder(
    user: AuthUser,
    orderId: string,
    dto: RefundOrderDto,
  ): Promise<OrderResponseDto> {
    const order = isUuid(orderId) ? await this.orders.findByUuid(orderId.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    const role = await this.policy.requireAccess(user, 'payment.refund', order.businessUuid, {
      message: "Only the owner of the order's business or its managers may refund it.",
    });
    await this.payments.refund(snapshotOf(order), {
      amount: dto.amount === undefined ? undefined : (parsePrice(dto.amount) as Money),
      reason: dto.reason?.trim() || null,
      by: { actor: role, userUuid: user.uuid },
    });
    return this.views.owner(await this.reread(order));
  }

  /**
   * A guest's verify, checkout and charge each call Paystack on the
   * restaurant's account, so a stranger may repeat them only so often: per
   * client address and per order, a minute each (429 with Retry-After
   * beyond). Called before any transaction opens.
   */
  private async limitGuest(action: GuestAction, orderUuid: string, ip: string): Promise<void> {
    const { rateLimitPaymentPerIpPerMinute: perIp, rateLimitPaymentPerOrderPerMinute: perOrder } =
      this.config;
    await this.limiter.consume(`payment-${action}-ip`, ip, perIp, 60);
    await this.limiter.consume(`payment-${action}-order`, orderUuid, perOrder, 60);
  }

  /** The order of this token; a wrong or missing token is answered as an unknown order. */
  private async guestOrder(uuid: string, token: string | undefined): Promise<OrderEntity> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order || !this.tokens.matches(order.uuid, token)) {
      throw ApiError.notFound('The order does not exist.');
    }
    return order;
  }

  /** The order for its guest (token) or its business's owner or team (Bearer); another user is 403. */
  private async guestOrOwnerOrder(
    uuid: string,
    token: string | undefined,
    user: AuthUser | undefined,
  ): Promise<{ order: OrderEntity; viewer: Viewer }> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    if (token !== undefined && this.tokens.matches(order.uuid, token))
      return { order, viewer: 'guest' };
    if (user) {
      await this.policy.requireAccess(user, 'order.read', order.businessUuid, {
        message: "Only the owner of the order's business or its team may act on its payment.",
      });
      return { order, viewer: 'owner' };
    }
    throw ApiError.notFound('The order does not exist.');
  }

  /** The menu and business a checkout or charge needs (channels, subaccount). */
  private async context(order: OrderEntity): Promise<CheckoutContext> {
    const orderable = await this.entities.findOrderableMenu(order.menuUuid, []);
    if (!orderable) {
      throw ApiError.unprocessable('The menu of this order no longer takes payments.', [
        { field: 'menu_uuid', message: 'the menu or its business is no longer public' },
      ]);
    }
    return { menu: orderable.menu.extraData, business: orderable.business.extraData };
  }

  private async reread(order: OrderEntity): Promise<OrderEntity> {
    return (await this.orders.findByUuid(order.uuid)) ?? order;
  }

  /**
   * The payment as the charge left it. One still pending or failed was never
   * paid, so it has no refunds and is answered from its row as it stands;
   * any other is read again with its refunds.
   */
  private async record(order: OrderEntity, payment: PaymentRow): Promise<PaymentRecordResponseDto> {
    if (payment.status === 'pending' || payment.status === 'failed') {
      return toPaymentRecords({ payments: [payment], refunds: [] })[0];
    }
    const all = (await this.payments.ofOrders([order.uuid])).get(order.uuid)!;
    return toPaymentRecords(all).find((record) => record.uuid === payment.uuid)!;
  }
}
