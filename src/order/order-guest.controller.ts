import { Body, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Request, Response } from 'express';
import { ApiKeyOnly, Auth } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message, RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { CancelOrderDto } from './dto/cancel-order.dto';
import { GuestOrderResponseDto } from './dto/guest-order-response.dto';
import { OrderGuestService } from './order-guest.service';

const TOKEN_HEADER = {
  name: 'x-order-token',
  required: false,
  description: 'The order_token of the placement answer (or send it as ?order_token=).',
};
const TOKEN_QUERY = {
  name: 'order_token',
  type: String,
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

  @Get('order/:uuid/stream')
  @ApiOperation({
    summary: "Follow one order's changes as its guest (Server-Sent Events)",
    description:
      "`order.updated` with the order's summary as JSON `data` on each change of this order (status, payment), whichever replica made it, and a comment line as heartbeat every 15 s. EventSource cannot send headers, so the key and the token go in the query (`api_key`, `order_token`). A wrong or missing token is 404, as for an unknown order.",
  })
  @Auth({ bearer: 'none', queryCredentials: true })
  @RawResponse()
  @ApiProduces('text/event-stream')
  @ApiQuery({
    name: 'api_key',
    type: String,
    required: false,
    description: 'The API key, for EventSource',
  })
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

  @Get('order/:uuid')
  @ApiOperation({
    summary: 'Read an order as its guest',
    description:
      "The order as its guest may see it: status, lines with their options, totals and history, without the owner's note. The token is the placement's `order_token`, sent as `x-order-token` or `?order_token=`; a wrong or missing token is 404, as for an unknown order.",
  })
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

  @Post('order/:uuid/cancel')
  @ApiOperation({
    summary: 'Cancel a pending order as its guest',
    description:
      'Moves a pending order to cancelled, recorded in the history with actor `guest` (by: null); the owner gets a notification with the optional reason and an `order.updated` event on their stream. An order in any other state is 422 and stays as it is, and so is a pending order already paid online (detail on `payment`: the restaurant cancels it and refunds the payment). A wrong or missing token is 404, as for an unknown order.',
  })
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
