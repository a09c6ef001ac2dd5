import { Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser, Public } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message, RawResponse } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import {
  GuestMessageResponseDto,
  ListGuestMessagesQueryDto,
  StopMessagesResponseDto,
  WhatsAppWebhookReceiptDto,
} from './dto/guest-message.dto';
import { GuestMessageService } from './guest-message.service';

/** The guest's stop and WhatsApp's status webhook, under /plugins/{ns}/{ns}-init. */
@ApiTags('guest messages')
@SpaceController('orders')
export class GuestMessageGuestController {
  constructor(private readonly messages: GuestMessageService) {}

  @Post('order/:uuid/messages/stop')
  @ApiOperation({
    summary: 'Stop order messages to this guest’s number',
    description:
      'With the order’s token (`x-order-token` or `?order_token=`): the number the guest consented with gets no more WhatsApp or SMS messages from this business, for good (messages already queued are not sent; the log shows them `stopped`). An order without consent answers `stopped: false`. A wrong or missing token is 404, as for an unknown order.',
  })
  @ApiKeyOnly()
  @HttpCode(200)
  @Message('Messages stopped')
  @ApiHeader({
    name: 'x-order-token',
    required: false,
    description: 'The order_token of the placement answer.',
  })
  @ApiQuery({ name: 'order_token', type: String, required: false })
  @ApiEnvelope(StopMessagesResponseDto)
  @ApiErrors(404)
  stopGuestMessages(
    @Param('uuid') uuid: string,
    @Headers('x-order-token') header: string | undefined,
    @Query('order_token') query: unknown,
  ): Promise<StopMessagesResponseDto> {
    return this.messages.stop(uuid, header !== undefined && header !== '' ? header : query);
  }

  @Get('messages/whatsapp/webhook')
  @ApiOperation({
    summary: 'WhatsApp’s webhook verification handshake (no API key)',
    description:
      'Answers `hub.challenge` as plain text when `hub.mode` is `subscribe` and `hub.verify_token` is WHATSAPP_VERIFY_TOKEN; 403 otherwise (and when no verify token is configured).',
  })
  @Public()
  @RawResponse()
  @ApiProduces('text/plain')
  @ApiQuery({ name: 'hub.mode', type: String, required: true })
  @ApiQuery({ name: 'hub.verify_token', type: String, required: true })
  @ApiQuery({ name: 'hub.challenge', type: String, required: true })
  @ApiOkResponse({ description: 'The challenge', schema: { type: 'string' } })
  @ApiErrors(403)
  verifyWhatsAppWebhook(@Req() req: Request, @Res() res: Response): void {
    const query = req.query as Record<string, unknown>;
    const hub = (query.hub ?? {}) as Record<string, unknown>;
    const challenge = this.messages.verifyWhatsApp(
      query['hub.mode'] ?? hub.mode,
      query['hub.verify_token'] ?? hub.verify_token,
      query['hub.challenge'] ?? hub.challenge,
    );
    res.status(200).type('text/plain').send(challenge);
  }

  @Post('messages/whatsapp/webhook')
  @ApiOperation({
    summary: 'Receives WhatsApp’s message statuses (no API key)',
    description:
      '`X-Hub-Signature-256` must be `sha256=` and the hex HMAC-SHA256 of the raw body under WHATSAPP_APP_SECRET, else 401 and nothing changes. Each status of `entry[].changes[].value.statuses[]` moves its message forward only: `sent` → `delivered` → `read`, or to `failed`; a failure because the number cannot receive WhatsApp (131026 and the unknown-recipient errors) sends the message once on the business’s next channel. Unknown ids and other events are acknowledged with 200 and change nothing.',
  })
  @Public()
  @HttpCode(200)
  @Message('Event received')
  @ApiHeader({ name: 'x-hub-signature-256', required: true })
  @ApiBody({
    schema: { type: 'object', additionalProperties: true },
    examples: {
      delivered: {
        value: {
          object: 'whatsapp_business_account',
          entry: [
            {
              id: '102290129340398',
              changes: [
                {
                  field: 'messages',
                  value: {
                    messaging_product: 'whatsapp',
                    metadata: {
                      display_phone_number: '15550783881',
                      phone_number_id: '106540352242922',
                    },
                    statuses: [
                      {
                        id: 'wamid.HBgNMjM0ODAzMTIzNDU2NxUCABEYEjQ2',
                        status: 'delivered',
                        timestamp: '1795880000',
                        recipient_id: '2348031234567',
                      },
                    ],
                  },
                },
              ],
            },
          ],
        },
      },
    },
  })
  @ApiEnvelope(WhatsAppWebhookReceiptDto)
  @ApiErrors(400, 401)
  receiveWhatsAppWebhook(
    @Req() req: Request & { rawBody?: Buffer },
  ): Promise<WhatsAppWebhookReceiptDto> {
    return this.messages.receiveWhatsApp(req.rawBody, req.headers);
  }
}

/** The business's message log, for its owner and managers. */
@ApiTags('guest messages')
@SpaceController('core', 'businesses/:business_uuid/messages')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class GuestMessageLogController {
  constructor(private readonly messages: GuestMessageService) {}

  /**
   * Lists the messages sent (or not sent) to the business's guests.
   *
   * @remarks Newest first, paged, between the local dates `from` and `to`
   * (the business's time zone; default the last 30 days), each with its
   * status (`queued`, `sent`, `delivered`, `read`, `failed`, `skipped_limit`,
   * `stopped`) and the guest's number masked but its last four digits. Owner
   * and managers; staff are 403; a business the caller has no part in is 404.
   */
  @Get()
  @Auth()
  @ApiEnvelope(GuestMessageResponseDto, { isArray: true })
  @ApiErrors(400, 403, 404)
  listGuestMessages(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ListGuestMessagesQueryDto,
  ): Promise<ApiResult<GuestMessageResponseDto[]>> {
    return this.messages.list(user, businessUuid, query);
  }
}
