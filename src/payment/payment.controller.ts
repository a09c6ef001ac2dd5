import { HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { WebhookReceiptDto } from './dto/webhook-receipt.dto';
import { PaymentConfirmations } from './payment-confirmations';

/** What payment providers push to the service, under /plugins/{ns}/{ns}-init. */
@ApiTags('payments')
@SpaceController('orders')
export class PaymentController {
  constructor(private readonly confirmations: PaymentConfirmations) {}

  /** Receives Paystack's events (no API key). */
  @ApiOperation({
    summary: "Receives Paystack's events (no API key).",
    description:
      '`x-paystack-signature` must be the hex HMAC-SHA512 of the raw body under the secret key, else 401 and nothing changes. `charge.success` (any channel: card, USSD, mobile money, bank transfer) marks the payment of its reference paid with the amount Paystack reports, once however many deliveries and checks race; a charge in another currency is a `mismatch`. `refund.processed` confirms a refund. Replays, unknown references and other event types are acknowledged with 200 and change nothing. 404 when no Paystack key is configured.',
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
            channel: 'ussd',
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
}
