import { Body, Headers, HttpCode, Ip, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { CreatePaymentDto, PaymentRecordResponseDto, SubmitOtpDto } from '../payment';
import { GuestOrderResponseDto } from './dto/guest-order-response.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { RefundOrderDto } from './dto/refund-order.dto';
import { OrderPaymentsService } from './order-payments.service';

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
const GUEST_LIMITS =
  'Limited per order and per client address (10 and 30 a minute by default; 429 `RATE_LIMITED` with `Retry-After` beyond).';

/** Paying an order under /plugins/{ns}/{ns}-init: checkouts, charges, verification, refunds. */
@ApiTags('payments')
@SpaceController('orders')
export class OrderPaymentsController {
  constructor(private readonly service: OrderPaymentsService) {}

  /** Opens a new card checkout for an order that is not paid. */
  @ApiOperation({
    summary: 'Opens a new card checkout for an order that is not paid.',
    description: `For the guest whose checkout failed to open or was abandoned: a new checkout with a new reference for what is left to pay; the answer's \`payment.authorization_url\` is where to send the guest. Needs the order's token; a wrong token is answered as an unknown order (404). 409 when the order is paid; 422 when it is not paid online by card. ${GUEST_LIMITS}`,
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
    return this.service.retryCheckout(uuid, headerToken ?? queryToken, ip ?? 'unknown');
  }

  /** Pays from the order page: USSD, mobile money or a bank transfer that confirms itself. */
  @ApiOperation({
    summary:
      'Pays from the order page: USSD, mobile money or a bank transfer that confirms itself.',
    description: `Opens a charge through Paystack for what is left to pay (the order's total less what is paid) and answers 201 with the payment; its \`next_action\` tells the guest what to do: \`dial\` a USSD \`code\`, \`approve_on_phone\`, send an \`otp\` (then \`POST …/payments/{payment_uuid}/otp\`), or \`transfer\` \`amount\` to \`account_number\` before \`expires_at\`. The payment confirms itself (Paystack's webhook, or the service's own check of a charge still pending after two minutes); a charge Paystack refuses answers 201 with \`status: failed\` and its \`error\`. \`ussd\` and \`bank_transfer\` take NGN; \`mobile_money\` GHS (mtn, atl, vod) or KES (mpesa). 400 for a body outside these forms (naming the field); 404 for a wrong or missing order token; 409 when nothing is left to pay; 422 naming \`channel\` when the menu's \`paystack\` entry does not offer the channel (an entry without \`channels\` offers all three) or the order's currency is not the channel's. ${GUEST_LIMITS}`,
  })
  @Post('order/:uuid/payments')
  @ApiKeyOnly()
  @Message('Payment opened')
  @ApiHeader(ORDER_TOKEN_HEADER)
  @ApiQuery(ORDER_TOKEN_QUERY)
  @ApiBody({
    type: CreatePaymentDto,
    examples: {
      ussd: { value: { channel: 'ussd', bank: '737' } },
      mobile_money: { value: { channel: 'mobile_money', provider: 'mtn', phone: '+233551234987' } },
      bank_transfer: { value: { channel: 'bank_transfer' } },
    },
  })
  @ApiEnvelope(PaymentRecordResponseDto, { status: 201 })
  @ApiErrors(400, 404, 409, 422, 429)
  createOrderPayment(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') headerToken: string | undefined,
    @Query('order_token') queryToken: string | undefined,
    @Body() dto: CreatePaymentDto,
    @Ip() ip?: string,
  ): Promise<PaymentRecordResponseDto> {
    return this.service.createPayment(uuid, headerToken ?? queryToken, dto, ip ?? 'unknown');
  }

  /** Sends the OTP a charge asked for. */
  @ApiOperation({
    summary: 'Sends the OTP a charge asked for.',
    description: `For a payment whose \`next_action.type\` is \`otp\`: forwards the code to Paystack and answers 200 with the payment as it then stands. 404 for another order's payment or a wrong token; 409 when the payment is not waiting for an OTP. ${GUEST_LIMITS}`,
  })
  @Post('order/:uuid/payments/:payment_uuid/otp')
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('OTP sent')
  @ApiHeader(ORDER_TOKEN_HEADER)
  @ApiQuery(ORDER_TOKEN_QUERY)
  @ApiBody({ type: SubmitOtpDto, examples: { otp: { value: { otp: '123456' } } } })
  @ApiEnvelope(PaymentRecordResponseDto)
  @ApiErrors(400, 404, 409, 429)
  submitOrderPaymentOtp(
    @Param('uuid') uuid: string,
    @Param('payment_uuid') paymentUuid: string,
    @Headers('x-order-token') headerToken: string | undefined,
    @Query('order_token') queryToken: string | undefined,
    @Body() dto: SubmitOtpDto,
    @Ip() ip?: string,
  ): Promise<PaymentRecordResponseDto> {
    return this.service.submitOtp(
      uuid,
      paymentUuid,
      headerToken ?? queryToken,
      dto.otp,
      ip ?? 'unknown',
    );
  }

  /** Asks the provider whether the order's latest payment was paid. */
  @ApiOperation({
    summary: "Asks the provider whether the order's latest payment was paid.",
    description: `For a storefront's callback page when the webhook is late: the provider's answer about the latest checkout or charge is applied by the same rule as its webhook (paid exactly once, with the amount the provider reports; another currency is a mismatch). The guest sends the order's token and gets the order as the guest sees it (no \`owner_note\`, no history of that note); the owner may send their Bearer token instead and gets the whole order, \`owner_note\` included. The guest's calls are ${GUEST_LIMITS.charAt(0).toLowerCase()}${GUEST_LIMITS.slice(1)}`,
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
    return this.service.verifyPayment(uuid, headerToken ?? queryToken, user, ip ?? 'unknown');
  }

  /** Refunds an order's payments, in full or in part (the business's owner or a manager). */
  @ApiOperation({
    summary: "Refunds an order's payments, in full or in part (the business's owner or a manager).",
    description:
      'No amount: all that is left (paid − refunded). The refund takes from the paid payments, the one paid last first, each through its own provider (a card or charge through Paystack; cash and transfers to the business recorded as the owner says); one refund over several payments makes a refund record per payment (`payments[].refunds`). 422 when nothing was paid or the amount exceeds what is left, or when the provider refused every part; 409 while another refund of the order is being made. Answers the order with the new `amount_refunded` and status.',
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
    return this.service.refundOrder(user, orderId, dto);
  }
}
