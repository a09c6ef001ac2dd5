import { Body, Headers, HttpCode, Ip, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser, Public } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import { GuestOrderResponseDto, OrderResponseDto } from '../order';
import { RefundOrderDto } from './dto/refund-order.dto';
import { WebhookReceiptDto } from './dto/webhook-receipt.dto';
import { PaymentCheckoutService } from './payment-checkout.service';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentRefundService } from './payment-refund.service';

const ORDER_TOKEN_HEADER = {
  name: 'x-order-token',
  required: false,
  description: "The order's token from the placement answer (or the `order_token` query).",
};
const ORDER_TOKEN_QUERY = {
  name: 'order_token',
  required: false,
  description: 'The order token, for clients that cannot send headers.',
};

/** Payments of orders under /plugins/{ns}/{ns}-init: checkouts, verification, webhooks, refunds. */
@ApiTags('payments')
@SpaceController('orders')
export class PaymentController {
  constructor(
    private readonly checkouts: PaymentCheckoutService,
    private readonly confirmations: PaymentConfirmationService,
    private readonly refunds: PaymentRefundService,
  ) {}

  /** Opens a new card checkout for an order that is not paid. */
  @ApiOperation({
    summary: 'Opens a new card checkout for an order that is not paid.',
    description:
      "For the guest whose checkout failed to open or was abandoned: a new checkout with a new reference; the answer's `payment.authorization_url` is where to send the guest. Needs the order's token; a wrong token is answered as an unknown order (404). 409 when the order is paid; 422 when it is not paid online by card. Limited per order and per client address (10 and 30 a minute by default; 429 `RATE_LIMITED` with `Retry-After` beyond).",
  })
  @Post('order/:uuid/payment')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('Checkout opened')
  @ApiHeader(ORDER_TOKEN_HEADER)
  @ApiQuery(ORDER_TOKEN_QUERY)
  @ApiEnvelope(GuestOrderResponseDto)
  @ApiErrors(404, 409, 422, 429)
  retryOrderPayment(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') headerToken: string | undefined,
    @Query('order_token') queryToken: string | undefined,
    @Ip() ip?: string,
  ): Promise<GuestOrderResponseDto> {
    return this.checkouts.retryCheckout(uuid, headerToken ?? queryToken, ip ?? 'unknown');
  }

  /** Asks the provider whether the order's checkout was paid. */
  @ApiOperation({
    summary: "Asks the provider whether the order's checkout was paid.",
    description:
      "For a storefront's callback page when the webhook is late: the provider's answer is applied by the same rule as its webhook (paid exactly once; another amount or currency is a mismatch). The guest sends the order's token and gets the order as the guest sees it (no `owner_note`, no history of that note); the owner may send their Bearer token instead and gets the whole order, `owner_note` included. The guest's calls are limited per order and per client address (10 and 30 a minute by default; 429 `RATE_LIMITED` with `Retry-After` beyond).",
  })
  @Post('order/:uuid/payment/verify')
  @Auth({ bearer: 'optional' })
  @HttpCode(200)
  @Message('Payment verified')
  @ApiHeader(ORDER_TOKEN_HEADER)
  @ApiQuery(ORDER_TOKEN_QUERY)
  @ApiEnvelope(GuestOrderResponseDto)
  @ApiErrors(403, 404, 422, 429)
  verifyOrderPayment(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') headerToken: string | undefined,
    @Query('order_token') queryToken: string | undefined,
    @CurrentUser() user: AuthUser | undefined,
    @Ip() ip?: string,
  ): Promise<GuestOrderResponseDto | OrderResponseDto> {
    return this.confirmations.verifyPayment(uuid, headerToken ?? queryToken, user, ip ?? 'unknown');
  }

  /** Receives Paystack's events (no API key). */
  @ApiOperation({
    summary: "Receives Paystack's events (no API key).",
    description:
      '`x-paystack-signature` must be the hex HMAC-SHA512 of the raw body under the secret key, else 401 and nothing changes. `charge.success` marks the order paid (or `mismatch` for another amount or currency); `refund.processed` confirms a refund. Replays, unknown references and other event types are acknowledged with 200 and change nothing. 404 when no Paystack key is configured.',
  })
  @Post('payment/paystack/webhook')
  @Public()
  @HttpCode(200)
  @Message('Event received')
  @ApiHeader({ name: 'x-paystack-signature', required: true })
  @ApiBody({
    schema: { type: 'object', additionalProperties: true },
    examples: {
      'charge.success': {
        value: {
          event: 'charge.success',
          data: {
            id: 302961,
            status: 'success',
            reference: 'K7Q2-9XD4-1',
            amount: 350000,
            currency: 'NGN',
            paid_at: '2026-11-22T12:00:00.000Z',
          },
        },
      },
    },
  })
  // R31: paystack.
  @ApiEnvelope(WebhookReceiptDto)
  @ApiErrors(401, 404)
  receivePaystackWebhook(@Req() req: Request & { rawBody?: Buffer }): Promise<WebhookReceiptDto> {
    return this.confirmations.receiveWebhook('paystack', req.rawBody, req.headers);
  }

  /** Refunds an order's payment, in full or in part (the business's owner or a manager). */
  @ApiOperation({
    summary: "Refunds an order's payment, in full or in part (the business's owner or a manager).",
    description:
      'No amount: all that is left (paid − refunded). A card payment is refunded through the provider; cash and bank transfer are recorded as the owner says. 422 when nothing was paid or the amount exceeds what is left; 409 while another refund of the order is being made. Answers the order with the new `amount_refunded` and status.',
  })
  @Post('admin/order/refund/:order_id')
  @Auth()
  @HttpCode(200)
  @Message('Refund made')
  @ApiBody({
    type: RefundOrderDto,
    examples: { partial: { value: { amount: '12.50', reason: 'Item was sold out' } } },
  })
  @ApiEnvelope(OrderResponseDto)
  @ApiErrors(400, 403, 404, 409, 422)
  refundOrder(
    @CurrentUser() user: AuthUser,
    @Param('order_id') orderId: string,
    @Body() dto: RefundOrderDto,
  ): Promise<OrderResponseDto> {
    return this.refunds.refundOrder(user, orderId, dto);
  }
}
