import { Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { ListOrdersQueryDto, StreamOrdersQueryDto } from './dto/list-orders-query.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrderInboxService } from './order-inbox.service';
import { OrderStreamHub } from './realtime/order-stream.hub';

/**
 * The order inbox in the core space (the orders of the businesses the caller
 * owns or works for): list, one order, and the live stream.
 */
@ApiTags('orders')
@SpaceController('core', 'orders')
export class OrderInboxController {
  constructor(
    private readonly inbox: OrderInboxService,
    private readonly hub: OrderStreamHub,
  ) {}

  /**
   * Stream the caller's orders (Server-Sent Events)
   *
   * @remarks An endless `text/event-stream` with `order.created` and `order.updated` events for
   * the orders of the businesses the caller owns or works for, each with the order's summary as
   * JSON `data`, and a comment line every 15 s as heartbeat; `business_uuid` narrows it to one
   * business (404 when the caller has no part in it). Events reach every replica of the service.
   * EventSource cannot send headers, so `?api_key=` and `?access_token=` are accepted too. The
   * stream ends (with a `stream.closed` event saying why) within 5 s of its token ending (expiry,
   * or a password change or reset) or of the caller no longer working for a business it follows
   * (removed, left, or a role that may not read orders).
   */
  @Get('stream')
  @Auth({ queryCredentials: true })
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiQuery({ name: 'api_key', required: false, description: 'The API key, for EventSource' })
  @ApiQuery({ name: 'access_token', required: false, description: 'The JWT, for EventSource' })
  @ApiOkResponse({ description: 'An endless event stream', schema: { type: 'string' } })
  @ApiErrors(403, 404)
  async streamOrders(
    @CurrentUser() user: AuthUser,
    @Query() query: StreamOrdersQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const scope = await this.inbox.streamScope(user, query.business_uuid);
    this.hub.open(user, req, res, scope);
  }

  /**
   * List the caller's orders
   *
   * @remarks Orders of all the businesses the caller owns or works for (as owner, manager or
   * staff), newest first, paged like entity lists; `business_uuid` narrows it to one.
   * Filters: `status`, `business_uuid`, `menu_uuid`, `from` and `to` (ISO 8601).
   */
  @Get()
  @Auth()
  @ApiEnvelope(OrderResponseDto, { isArray: true, paged: true })
  @ApiErrors(400)
  listOrders(
    @CurrentUser() user: AuthUser,
    @Query() query: ListOrdersQueryDto,
  ): Promise<ApiResult<OrderResponseDto[]>> {
    return this.inbox.listOrders(user, query);
  }

  /**
   * Read one order
   *
   * @remarks One order of the caller's businesses with its lines and history. Another user's order
   * is 403; an unknown one 404.
   */
  @Get(':uuid')
  @Auth()
  @ApiEnvelope(OrderResponseDto)
  @ApiErrors(403, 404)
  getOrder(@CurrentUser() user: AuthUser, @Param('uuid') uuid: string): Promise<OrderResponseDto> {
    return this.inbox.getOrder(user, uuid);
  }
}
