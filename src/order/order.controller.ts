import { Body, Headers, HttpCode, Ip, Param, Post, Put } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { OrderResponseDto, PlacedOrderResponseDto } from './dto/order-response.dto';
import { OrderNotifyResponseDto } from './dto/order-notify-response.dto';
import { PlaceOrderDto } from './dto/place-order.dto';
import { UpdateOrderDto } from './dto/update-order.dto';
import { OrderPlacementService } from './order-placement.service';
import { OrderUpdateService } from './order-update.service';

/** The order middleware (§5.1, §5.2) under /plugins/{ns}/{ns}-init. */
@ApiTags('orders')
@SpaceController('orders')
export class OrderController {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly updates: OrderUpdateService,
  ) {}

  /**
   * Places a guest order. The server checks every rule: payment method,
   * public menu and items, the business open (opening hours and its
   * accepting_orders switch), nothing sold out, each line's options,
   * quantities, at most one delivery line, and the exact total of the lines
   * priced with their options; it stores the order, its notification and
   * mails in one transaction. The answer carries the guest's order_token.
   * Send an Idempotency-Key to make retries safe.
   */
  @Post('order')
  @ApiKeyOnly()
  @Message('Order placed')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1–128 visible ASCII characters. The same key with the same body within 24 h answers the first order again with `Idempotent-Replayed: true`; with another body, 409.',
  })
  @ApiEnvelope(PlacedOrderResponseDto, {
    status: 201,
    description:
      'The order and the guest’s order_token (also the replay of a repeated Idempotency-Key)',
  })
  @ApiErrors(400, 404, 409, 413, 422, 429)
  placeOrder(
    @Body() dto: PlaceOrderDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Ip() ip: string,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    return this.placement.placeOrder(dto, idempotencyKey, ip);
  }

  /** D22: the server already notified the owner; kept for clients that make this call. */
  @Post('order/:uuid/notify')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('The owner has been notified')
  @ApiEnvelope(OrderNotifyResponseDto)
  @ApiErrors(404)
  notifyOrderOwner(@Param('uuid') uuid: string): Promise<OrderNotifyResponseDto> {
    return this.placement.acknowledgeNotify(uuid);
  }

  /** The owner changes status, payment status or note (§5.2, D23); every change goes to the history. */
  @Put('admin/order/update/:order_id')
  @Auth()
  @Message('Order updated')
  @ApiEnvelope(OrderResponseDto)
  @ApiErrors(400, 403, 404, 409, 422)
  updateOrder(
    @CurrentUser() user: AuthUser,
    @Param('order_id') orderId: string,
    @Body() dto: UpdateOrderDto,
  ): Promise<OrderResponseDto> {
    return this.updates.updateOrder(user, orderId, dto);
  }
}
