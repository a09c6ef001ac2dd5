import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope.interceptor';
import { SpaceController } from '../http/url-space';
import {
  ListWebhookDeliveriesQueryDto,
  WebhookDeliveryResponseDto,
} from './dto/webhook-delivery.dto';
import {
  CreatedWebhookResponseDto,
  CreateWebhookDto,
  UpdateWebhookDto,
  WebhookEndpointResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook-endpoint.dto';
import { WebhookService } from './webhook.service';

/**
 * The caller's outbound webhook endpoints in the core space. Another user's
 * endpoint answers 404, as if it did not exist.
 */
@ApiTags('webhooks')
@SpaceController('core', 'webhooks')
export class WebhookController {
  constructor(private readonly webhooks: WebhookService) {}

  /**
   * Registers an endpoint for order events (at most 10 per user). The answer
   * carries the signing secret: it is shown only here and on rotation. A URL
   * that is not http(s), or whose host resolves to a loopback, private or
   * link-local address, is refused with 400 on `url`.
   */
  @Post()
  @Auth()
  @ApiEnvelope(CreatedWebhookResponseDto, { status: 201 })
  @ApiErrors(400, 403, 404, 422)
  createWebhook(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateWebhookDto,
  ): Promise<ApiResult<CreatedWebhookResponseDto>> {
    return this.webhooks.createWebhook(user, dto);
  }

  /** The caller's endpoints, newest first, without their secrets. */
  @Get()
  @Auth()
  @ApiEnvelope(WebhookEndpointResponseDto, { isArray: true })
  listWebhooks(@CurrentUser() user: AuthUser): Promise<WebhookEndpointResponseDto[]> {
    return this.webhooks.listWebhooks(user);
  }

  /** One of the caller's endpoints, without its secret. */
  @Get(':uuid')
  @Auth()
  @ApiEnvelope(WebhookEndpointResponseDto)
  @ApiErrors(404)
  getWebhook(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
  ): Promise<WebhookEndpointResponseDto> {
    return this.webhooks.getWebhook(user, uuid);
  }

  /**
   * Changes the URL (checked as on create), the events, the description, or
   * turns the endpoint on or off; turning it on clears its failure count.
   */
  @Put(':uuid')
  @Auth()
  @Message('Webhook endpoint updated')
  @ApiEnvelope(WebhookEndpointResponseDto)
  @ApiErrors(400, 404)
  updateWebhook(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Body() dto: UpdateWebhookDto,
  ): Promise<WebhookEndpointResponseDto> {
    return this.webhooks.updateWebhook(user, uuid, dto);
  }

  /** Deletes the endpoint with its delivery log; queued attempts are dropped. */
  @Delete(':uuid')
  @Auth()
  @Message('Webhook endpoint deleted')
  @ApiEnvelope(WebhookEndpointResponseDto)
  @ApiErrors(404)
  deleteWebhook(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
  ): Promise<WebhookEndpointResponseDto> {
    return this.webhooks.deleteWebhook(user, uuid);
  }

  /** A new signing secret, shown only here; the old one stops signing at once. */
  @Post(':uuid/rotate-secret')
  @Auth()
  @HttpCode(200)
  @Message('Webhook secret rotated')
  @ApiEnvelope(WebhookSecretResponseDto)
  @ApiErrors(404)
  rotateWebhookSecret(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
  ): Promise<WebhookSecretResponseDto> {
    return this.webhooks.rotateWebhookSecret(user, uuid);
  }

  /**
   * Queues a `ping` event to the endpoint (whatever events it asked for) and
   * answers its first attempt, pending; follow it in the delivery log.
   */
  @Post(':uuid/ping')
  @Auth()
  @HttpCode(202)
  @Message('Ping queued')
  @ApiEnvelope(WebhookDeliveryResponseDto, { status: 202 })
  @ApiErrors(404, 422)
  pingWebhook(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
  ): Promise<WebhookDeliveryResponseDto> {
    return this.webhooks.pingWebhook(user, uuid);
  }

  /** The endpoint's delivery log, one row per attempt, newest first. */
  @Get(':uuid/deliveries')
  @Auth()
  @ApiEnvelope(WebhookDeliveryResponseDto, { isArray: true, paged: true })
  @ApiErrors(400, 404)
  listWebhookDeliveries(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Query() query: ListWebhookDeliveriesQueryDto,
  ): Promise<ApiResult<WebhookDeliveryResponseDto[]>> {
    return this.webhooks.listWebhookDeliveries(user, uuid, query);
  }

  /**
   * Sends the event of that attempt again: one new attempt, due at once, with
   * the same `webhook-id` and body, signed with the current secret.
   */
  @Post(':uuid/deliveries/:delivery_uuid/redeliver')
  @Auth()
  @HttpCode(202)
  @Message('Redelivery queued')
  @ApiEnvelope(WebhookDeliveryResponseDto, { status: 202 })
  @ApiErrors(404, 422)
  redeliverWebhook(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Param('delivery_uuid') deliveryUuid: string,
  ): Promise<WebhookDeliveryResponseDto> {
    return this.webhooks.redeliverWebhook(user, uuid, deliveryUuid);
  }
}
