import { Body, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { DeliveryQuoteService } from './delivery-quote.service';
import { DeliveryQuoteDto, DeliveryQuoteResponseDto } from './dto/delivery-quote.dto';

// R80: delivery quote.
/** Delivery zones, asked before ordering, under /plugins/{ns}/{ns}-init/delivery. */
@ApiTags('orders')
@SpaceController('orders', 'delivery')
export class DeliveryQuoteController {
  constructor(private readonly quotes: DeliveryQuoteService) {}

  /**
   * Quote a delivery to a place
   *
   * @remarks Needs the API key only. Takes a menu and a place (`latitude` and
   * `longitude`, or `area`, or both) and answers the menu's delivery zone
   * there, as placement would choose it: the first zone in the menu's list
   * that holds the point (a radius by great-circle distance, a polygon with
   * its edges) or names the area (without case or surrounding spaces). The
   * `fee` is the zone's, 0 once `items_subtotal` (0 when absent) reaches the
   * zone's `free_above`; `minimum_order_amount` is the zone's, else the
   * delivery mode's; `shortfall` is how far `items_subtotal` is below it.
   * Outside every zone is 422 "outside the delivery area", naming the zone
   * whose boundary is nearest the point (none for an area alone); a menu
   * without zones or without delivery is 422 on `menu_uuid`; an unknown or
   * closed menu is 404. Stores nothing. Limited per IP as the order quote is
   * (`RATE_LIMIT_QUOTE_PER_MINUTE`, 429 beyond).
   */
  @Post('quote')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('Delivery quoted')
  @ApiEnvelope(DeliveryQuoteResponseDto)
  @ApiErrors(400, 404, 422, 429)
  quoteDelivery(
    @Body() dto: DeliveryQuoteDto,
    @Ip() ip: string,
  ): Promise<DeliveryQuoteResponseDto> {
    return this.quotes.quote(dto, ip);
  }
}
