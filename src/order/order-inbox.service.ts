import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { DEFAULT_PER_PAGE } from '../http/page-query.dto';
import { isUuid } from '../common/uuid';
import { AccessPolicy } from '../team';
import { ListOrdersQueryDto } from './dto/list-orders-query.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrderEntity } from './entities';
import { OrderRepository } from './order.repository';
import { OrderViews } from './order-views';
import { InboxStreamScope } from './realtime/order-stream.hub';

/**
 * The order inbox: the orders of the businesses the caller owns or works
 * for, newest first.
 */
// R24: the owner's inbox.
@Injectable()
export class OrderInboxService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly access: AccessPolicy,
    private readonly views: OrderViews,
  ) {}

  async listOrders(
    user: AuthUser,
    query: ListOrdersQueryDto,
  ): Promise<ApiResult<OrderResponseDto[]>> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const memberOf = await this.access.memberBusinesses(user.uuid, 'order.read');
    const { orders, total } = await this.orders.listForOwner(
      user.uuid,
      {
        status: query.status,
        businessUuid: query.business_uuid?.toLowerCase(),
        menuUuid: query.menu_uuid?.toLowerCase(),
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      },
      page,
      perPage,
      memberOf,
    );
    return new ApiResult(
      await this.views.owners(orders),
      undefined,
      pageMeta(page, perPage, total),
    );
  }

  /**
   * What the caller's order stream follows: the businesses they work for, and
   * the one business `businessUuid` names (404 when the caller has no part in
   * it, 403 when their role may not read its orders).
   */
  async streamScope(user: AuthUser, businessUuid: string | undefined): Promise<InboxStreamScope> {
    if (businessUuid !== undefined) {
      await this.access.requireAccess(user, 'order.read', businessUuid, {
        noPart: 'not_found',
        message: 'Business not found.',
      });
    }
    return {
      memberOf: await this.access.memberBusinesses(user.uuid, 'order.read'),
      only: businessUuid?.toLowerCase(),
    };
  }

  async getOrder(user: AuthUser, uuid: string): Promise<OrderResponseDto> {
    const order = isUuid(uuid) ? await this.orders.findByUuid(uuid.toLowerCase()) : null;
    if (!order) throw ApiError.notFound('The order does not exist.');
    await this.access.requireAccess(user, 'order.read', order.businessUuid, {
      message: "Only the owner of the order's business or its team may read it.",
    });
    return this.views.owner(order);
  }

  /**
   * The order as its owner reads it, with lines, history and payments, read
   * on `manager` (a change's transaction sees its own writes).
   */
  async ownerView(manager: EntityManager, order: OrderEntity): Promise<OrderResponseDto> {
    return this.views.owner(order, manager);
  }
}
