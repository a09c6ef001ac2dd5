import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { isUuid } from '../common/uuid';
import { OrderTokens } from '../order/domain/order-token';
import { OrderResponseDto, toOrderResponse } from '../order/dto/order-response.dto';
import { OrderEntity } from '../order/entities';
import { OrderRepository } from '../order/order.repository';

/**
 * Who may act on an order's payment: the guest with the order's token (a
 * wrong or missing token is answered as an unknown order), or the owner of
 * the order's business with their Bearer token.
 */
@Injectable()
export class OrderAccess {
  constructor(
    private readonly orders: OrderRepository,
    private readonly tokens: OrderTokens,
  ) {}

  async guestOrder(uuid: string, token: string | undefined): Promise<OrderEntity> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order || !this.tokens.matches(order.uuid, token)) {
      throw ApiError.notFound('The order does not exist.');
    }
    return order;
  }

  /** The order for its guest (token) or its owner (Bearer); another user is 403. */
  async guestOrOwnerOrder(
    uuid: string,
    token: string | undefined,
    user: AuthUser | undefined,
  ): Promise<OrderEntity> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    if (token !== undefined && this.tokens.matches(order.uuid, token)) return order;
    if (user) {
      if (user.uuid === order.ownerUuid) return order;
      throw ApiError.forbidden("Only the owner of the order's business may act on its payment.");
    }
    throw ApiError.notFound('The order does not exist.');
  }

  /** The order answer: the order with its lines and history. */
  async detail(order: OrderEntity, manager?: EntityManager): Promise<OrderResponseDto> {
    const lines = await this.orders.linesOf([order.uuid], manager);
    const events = await this.orders.eventsOf([order.uuid], manager);
    return toOrderResponse(order, lines.get(order.uuid) ?? [], events.get(order.uuid) ?? []);
  }
}
