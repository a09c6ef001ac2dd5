import { Body, Headers, HttpCode, Ip, Param, Post, Put, Req } from '@nestjs/common';
import { Request } from 'express';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { describeStatusMoves } from './domain/order-status';
import { OrderResponseDto, PlacedOrderResponseDto } from './dto/order-response.dto';
import { OrderNotifyResponseDto } from './dto/order-notify-response.dto';
import { PlaceOrderDto } from './dto/place-order.dto';
import { OrderQuoteResponseDto, QuoteOrderDto } from './dto/quote-order.dto';
import { OrderQuoteService } from './order-quote.service';
import { UpdateOrderDto } from './dto/update-order.dto';
import { OrderPlacementService } from './order-placement.service';
import { OrderUpdateService } from './order-update.service';

/** Guest order placement and the owner's order update, under /plugins/{ns}/{ns}-init. */
@ApiTags('orders')
@SpaceController('orders')
export class OrderController {
  constructor(
    private readonly placement: OrderPlacementService,
    private readonly updates: OrderUpdateService,
    private readonly quotes: OrderQuoteService,
  ) {}

  /**
   * Place an order
   *
   * @remarks A guest order; needs the API key only. The server checks every rule itself:
   * `payment_processor` is `cash` (default), `bank_transfer` or `paystack`, and a method other
   * than cash must be offered by the menu; the menu and its business are public (404) and open
   * now (its opening hours and its `accepting_orders` switch; 422 with `opens_at` otherwise);
   * 1-100 cart lines, each a public item of this menu that is not sold out, with its chosen
   * options valid for the item's option groups, and a quantity within the item's minimum and
   * maximum (422 naming the line), at most one line of category Delivery; `amount` must equal
   * the order's total within 0.005 (422 with the computed total): the items' prices plus the
   * chosen options' deltas, then the business's pricing (discount code, service charge, tax,
   * tip) in exact decimals, as the answer's `pricing` block shows. The order, its lines with a snapshot
   * of each item and its options, the owner's notification and the mails are stored in one
   * transaction; a `paystack` order then opens a checkout. The answer carries the guest's
   * `order_token`. Send an `Idempotency-Key` to make retries safe. Limited per IP (30 a minute
   * by default); a body with a `discount_code` is also held back (429) while its IP has tried
   * too many unknown codes on this menu in the minute (10 by default, with quotes).
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
    @Req() req: Request,
  ): Promise<ApiResult<PlacedOrderResponseDto>> {
    // The guest's languages by Express's Accept-Language negotiation (q-values honoured).
    const accepted = req.headers['accept-language']
      ? (available: string[]) => (available.length ? req.acceptsLanguages(available) : false)
      : undefined;
    return this.placement.placeOrder(dto, idempotencyKey, ip, accepted);
  }

  /**
   * Price an order before placing it
   *
   * @remarks Needs the API key only. Takes an order body (`amount` and
   * `customer_email_address` may be left out) and answers the `pricing` block
   * placement would give (items, delivery, discount, service charge, tax, tip
   * and total) and the `problems` placement would refuse with (its 422
   * details, each naming its field; [] when the order would be placed). It
   * runs the same checks and the same pricing as placement, but stores
   * nothing and uses no discount redemption. An unknown or closed menu is 404
   * as for placement. Limited per IP (60 a minute by default), apart from
   * placement's limit. Unknown discount codes are counted per IP and menu
   * over quotes and placements: after 10 in a minute (by default), a quote
   * or placement from that IP for that menu that carries any
   * `discount_code` is 429 until the minute ends.
   */
  @Post('order/quote')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('Order priced')
  @ApiEnvelope(OrderQuoteResponseDto)
  @ApiErrors(400, 404, 413, 429)
  quoteOrder(@Body() dto: QuoteOrderDto, @Ip() ip: string): Promise<OrderQuoteResponseDto> {
    return this.quotes.quote(dto, ip);
  }

  /**
   * Notify the owner (kept for older clients)
   *
   * @remarks The service already notified the owner when the order was placed; this call changes
   * nothing and answers 200 for an existing order (404 otherwise).
   */
  @Post('order/:uuid/notify')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('The owner has been notified')
  @ApiEnvelope(OrderNotifyResponseDto)
  @ApiErrors(404)
  notifyOrderOwner(@Param('uuid') uuid: string): Promise<OrderNotifyResponseDto> {
    return this.placement.acknowledgeNotify(uuid);
  }

  @ApiOperation({
    summary: 'Update an order as its owner',
    description:
      "The owner of the order's business, or a manager or staff member of it, changes " +
      '`status` or `owner_note`; `payment_status` only the owner or a manager (staff: 403). ' +
      `Status moves: ${describeStatusMoves()} ` +
      'Any other move is 422 with the allowed next states in the details. `expected_status` ' +
      'makes the change conditional: when the current status differs, 409. Every change is ' +
      "added to the order's history with the acting user (`by`) and their role (`actor`). " +
      "Another user's order is 403.",
  })
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
