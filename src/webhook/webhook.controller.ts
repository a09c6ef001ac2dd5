import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
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
   * Registers a webhook endpoint for order events.
   *
   * @remarks At most 10 endpoints per user (the 11th is 422). The answer
   * carries the signing secret: it is shown only here and on rotation. A URL
   * that is not http(s), or whose host resolves to a loopback, private,
   * CGNAT, link-local (metadata), unspecified or multicast address, is
   * refused with 400 on `url`. `business_uuid` must be one of the caller's
   * businesses (404 when there is no such business, 403 when it is another
   * user's) and limits the endpoint to that business's orders.
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

  /**
   * Lists the caller's webhook endpoints.
   *
   * @remarks Newest first, never with their secrets.
   */
  @Get()
  @Auth()
  @ApiEnvelope(WebhookEndpointResponseDto, { isArray: true })
  listWebhooks(@CurrentUser() user: AuthUser): Promise<WebhookEndpointResponseDto[]> {
    return this.webhooks.listWebhooks(user);
  }

  /**
   * Reads one of the caller's webhook endpoints.
   *
   * @remarks Never with its secret. Another user's endpoint is 404.
   */
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
   * Changes a webhook endpoint.
   *
   * @remarks Any of the URL (checked as on create), the events, the
   * description, or whether it is enabled; enabling it clears its count of
   * failed deliveries. Another user's endpoint is 404.
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

  /**
   * Deletes a webhook endpoint.
   *
   * @remarks Its delivery log goes with it, and attempts still queued are
   * dropped. Another user's endpoint is 404.
   */
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

  /**
   * Replaces the signing secret of a webhook endpoint.
   *
   * @remarks The new secret is shown only in this answer; the old one signs
   * nothing from now on, including retries of earlier events.
   */
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
   * Sends a ping event to a webhook endpoint.
   *
   * @remarks Queues a `ping` event (whatever events the endpoint asked for)
   * and answers its first attempt, pending; follow it in the delivery log. A
   * disabled endpoint is 422: enable it first.
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

  /**
   * Reads the delivery log of a webhook endpoint.
   *
   * @remarks One row per attempt, newest first, paged (`per_page` at most 100).
   */
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
   * Sends the event of a delivery attempt again.
   *
   * @remarks Takes the uuid of any attempt of the event and queues one new
   * attempt, due at once, with the same `webhook-id` and body, signed with
   * the current secret. It is a single attempt: the retry schedule does not
   * apply to it. A disabled endpoint is 422: enable it first.
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
