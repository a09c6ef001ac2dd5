import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { isUuid } from '../common/uuid';
import {
  GuestOrderResponseDto,
  OrderEntity,
  OrderResponseDto,
  OrderTokens,
  toGuestOrderResponse,
  toOrderResponse,
} from '../order';
import { OrderRepository } from '../order';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { AccessPolicy } from '../team';

/** Who asked about an order: its guest (order token) or its business's owner or team (Bearer). */
export type OrderViewer = 'guest' | 'owner';

/**
 * Who may act on an order's payment: the guest with the order's token (a
 * wrong or missing token is answered as an unknown order), or the owner of
 * the order's business or a member of its team, as the access policy says,
 * with their Bearer token.
 */
@Injectable()
export class OrderAccess {
  constructor(
    private readonly orders: OrderRepository,
    private readonly tokens: OrderTokens,
    private readonly limiter: RateLimitService,
    @InjectConfig() private readonly config: AppConfig,
    private readonly policy: AccessPolicy,
  ) {}

  /**
   * A guest's verify and new checkout each call Paystack on the restaurant's
   * account, so a stranger may repeat them only so often: per client address
   * and per order, a minute each (429 with Retry-After beyond). Call it
   * before any transaction opens.
   */
  async limitGuest(action: 'verify' | 'checkout', orderUuid: string, ip: string): Promise<void> {
    const { rateLimitPaymentPerIpPerMinute: perIp, rateLimitPaymentPerOrderPerMinute: perOrder } =
      this.config;
    await this.limiter.consume(`payment-${action}-ip`, ip, perIp, 60);
    await this.limiter.consume(`payment-${action}-order`, orderUuid, perOrder, 60);
  }

  async guestOrder(uuid: string, token: string | undefined): Promise<OrderEntity> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order || !this.tokens.matches(order.uuid, token)) {
      throw ApiError.notFound('The order does not exist.');
    }
    return order;
  }

  /**
   * The order for its guest (token) or its business's owner or team
   * (Bearer), and which of the two asked, so the answer is mapped for them;
   * another user is 403.
   */
  async guestOrOwnerOrder(
    uuid: string,
    token: string | undefined,
    user: AuthUser | undefined,
  ): Promise<{ order: OrderEntity; viewer: OrderViewer }> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    if (token !== undefined && this.tokens.matches(order.uuid, token)) {
      return { order, viewer: 'guest' };
    }
    if (user) {
      await this.policy.requireAccess(user, 'order.read', order.businessUuid, {
        message: "Only the owner of the order's business or its team may act on its payment.",
      });
      return { order, viewer: 'owner' };
    }
    throw ApiError.notFound('The order does not exist.');
  }

  /** The owner's answer: the order with its lines and whole history. */
  async detail(order: OrderEntity, manager?: EntityManager): Promise<OrderResponseDto> {
    const { lines, events } = await this.parts(order, manager);
    return toOrderResponse(order, lines, events);
  }

  /** The guest's answer: the same order without what is the owner's alone. */
  async guestDetail(order: OrderEntity, manager?: EntityManager): Promise<GuestOrderResponseDto> {
    const { lines, events } = await this.parts(order, manager);
    return toGuestOrderResponse(order, lines, events);
  }

  /** The answer for whoever asked. */
  async detailFor(
    viewer: OrderViewer,
    order: OrderEntity,
  ): Promise<GuestOrderResponseDto | OrderResponseDto> {
    return viewer === 'owner' ? this.detail(order) : this.guestDetail(order);
  }

  private async parts(order: OrderEntity, manager?: EntityManager) {
    const lines = await this.orders.linesOf([order.uuid], manager);
    const events = await this.orders.eventsOf([order.uuid], manager);
    return { lines: lines.get(order.uuid) ?? [], events: events.get(order.uuid) ?? [] };
  }
}
