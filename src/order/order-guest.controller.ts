import { Body, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ApiKeyOnly, Auth } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message, RawResponse } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { CancelOrderDto } from './dto/cancel-order.dto';
import { GuestOrderResponseDto } from './dto/order-response.dto';
import { OrderGuestService } from './order-guest.service';

const TOKEN_HEADER = {
  name: 'x-order-token',
  required: false,
  description: 'The order_token of the placement answer (or send it as ?order_token=).',
};
const TOKEN_QUERY = {
  name: 'order_token',
  required: false,
  description: 'The order_token of the placement answer, when no x-order-token header is sent.',
};

/** The token from the header, else from the query. */
function tokenOf(header: string | undefined, query: unknown): unknown {
  return header !== undefined && header !== '' ? header : query;
}

/**
 * The guest's own view of an order under /plugins/{ns}/{ns}-init, with the
 * order_token the placement answered. A wrong or missing token is 404, as for
 * an unknown order.
 */
@ApiTags('orders')
@SpaceController('orders')
export class OrderGuestController {
  constructor(private readonly guest: OrderGuestService) {}

  /**
   * Server-Sent Events of one order for its guest: `order.updated` with the
   * order's summary as JSON `data` on each change (status, payment), and a
   * comment line as heartbeat every 15 s. EventSource cannot send headers,
   * so the key and the token go in the query.
   */
  @Get('order/:uuid/stream')
  @Auth({ bearer: 'none', queryCredentials: true })
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiQuery({ name: 'api_key', required: false, description: 'The API key, for EventSource' })
  @ApiQuery(TOKEN_QUERY)
  @ApiHeader(TOKEN_HEADER)
  @ApiOkResponse({ description: 'An endless event stream', schema: { type: 'string' } })
  @ApiErrors(404)
  streamGuestOrder(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') header: string | undefined,
    @Query('order_token') query: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.guest.streamGuestOrder(uuid, tokenOf(header, query), req, res);
  }

  /** The order as its guest sees it: status, lines, totals and history, without the owner's note. */
  @Get('order/:uuid')
  @ApiKeyOnly()
  @ApiHeader(TOKEN_HEADER)
  @ApiQuery(TOKEN_QUERY)
  @ApiEnvelope(GuestOrderResponseDto)
  @ApiErrors(404)
  getGuestOrder(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') header: string | undefined,
    @Query('order_token') query: unknown,
  ): Promise<GuestOrderResponseDto> {
    return this.guest.getGuestOrder(uuid, tokenOf(header, query));
  }

  /**
   * The guest cancels a pending order (history by the guest); the owner is
   * notified and their stream gets the change. Any other state is 422.
   */
  @Post('order/:uuid/cancel')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('Order cancelled')
  @ApiHeader(TOKEN_HEADER)
  @ApiQuery(TOKEN_QUERY)
  @ApiEnvelope(GuestOrderResponseDto)
  @ApiErrors(400, 404, 422)
  cancelGuestOrder(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') header: string | undefined,
    @Query('order_token') query: unknown,
    @Body() dto: CancelOrderDto,
  ): Promise<GuestOrderResponseDto> {
    return this.guest.cancelGuestOrder(uuid, tokenOf(header, query), dto);
  }
}
