import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { EntityService } from '../entity';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { isUuid } from '../common/uuid';
import { newWebhookSecret, SecretBox } from './domain/secret-box';
import { webhookUrlProblem } from './domain/url-guard';
import { MAX_ENDPOINTS_PER_USER } from './domain/webhook-events';
import {
  ListWebhookDeliveriesQueryDto,
  toWebhookDeliveryResponse,
  WebhookDeliveryResponseDto,
} from './dto/webhook-delivery.dto';
import {
  CreatedWebhookResponseDto,
  CreateWebhookDto,
  toWebhookEndpointResponse,
  UpdateWebhookDto,
  WebhookEndpointResponseDto,
  WebhookSecretResponseDto,
} from './dto/webhook-endpoint.dto';
import { WebhookEndpointEntity } from './entities';
import { WebhookQueue } from './webhook-queue';
import { EndpointChanges, WebhookRepository } from './webhook.repository';

const DEFAULT_PER_PAGE = 20;

/**
 * The owner's webhook endpoints: create, read, change, delete, rotate the
 * secret, ping, read the delivery log and redeliver. Another user's endpoint
 * is answered as if it did not exist (404).
 */
@Injectable()
export class WebhookService {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly repository: WebhookRepository,
    private readonly queue: WebhookQueue,
    private readonly secrets: SecretBox,
    private readonly entities: EntityService,
    private readonly clock: Clock,
  ) {}

  async createWebhook(
    user: AuthUser,
    dto: CreateWebhookDto,
  ): Promise<ApiResult<CreatedWebhookResponseDto>> {
    await this.checkUrl(dto.url);
    const businessUuid = dto.business_uuid?.toLowerCase() ?? null;
    if (businessUuid)
      await this.entities.assertBusinessAccess(user, businessUuid, 'webhook.manage');
    const secret = newWebhookSecret();
    const uuid = randomUUID();
    const endpoint = await this.dataSource.transaction(async (manager) => {
      const count = await this.repository.lockAndCountForOwner(manager, user.uuid);
      if (count >= MAX_ENDPOINTS_PER_USER) {
        throw ApiError.unprocessable(
          `You already have ${MAX_ENDPOINTS_PER_USER} webhook endpoints, the most allowed; delete one first.`,
          [{ field: 'url', message: `at most ${MAX_ENDPOINTS_PER_USER} endpoints per user` }],
        );
      }
      return this.repository.insertEndpoint(manager, {
        uuid,
        ownerUuid: user.uuid,
        businessUuid,
        url: dto.url,
        description: dto.description || null,
        events: [...dto.events],
        secretCiphertext: this.secrets.seal(secret, uuid),
      });
    });
    return new ApiResult(
      { ...toWebhookEndpointResponse(endpoint), secret },
      'Webhook endpoint created',
      undefined,
      201,
    );
  }

  async listWebhooks(user: AuthUser): Promise<WebhookEndpointResponseDto[]> {
    return (await this.repository.listForOwner(user.uuid)).map(toWebhookEndpointResponse);
  }

  async getWebhook(user: AuthUser, uuid: string): Promise<WebhookEndpointResponseDto> {
    return toWebhookEndpointResponse(await this.ownEndpoint(user, uuid));
  }

  async updateWebhook(
    user: AuthUser,
    uuid: string,
    dto: UpdateWebhookDto,
  ): Promise<WebhookEndpointResponseDto> {
    const endpoint = await this.ownEndpoint(user, uuid);
    const changes: EndpointChanges = {};
    if (dto.url !== undefined && dto.url !== endpoint.url) {
      await this.checkUrl(dto.url);
      changes.url = dto.url;
    }
    if (dto.events !== undefined) changes.events = [...dto.events];
    if (dto.description !== undefined) changes.description = dto.description || null;
    if (dto.enabled !== undefined && dto.enabled !== endpoint.enabled) {
      changes.enabled = dto.enabled;
      // Turned back on: it starts a fresh count of failures.
      if (dto.enabled) changes.consecutiveFailures = 0;
    }
    if (Object.keys(changes).length === 0) return toWebhookEndpointResponse(endpoint);
    return toWebhookEndpointResponse(await this.repository.updateEndpoint(endpoint.uuid, changes));
  }

  async deleteWebhook(user: AuthUser, uuid: string): Promise<WebhookEndpointResponseDto> {
    const endpoint = await this.ownEndpoint(user, uuid);
    await this.repository.deleteEndpoint(endpoint.uuid);
    return toWebhookEndpointResponse(endpoint);
  }

  /** A new secret; attempts made from now on are signed with it only. */
  async rotateWebhookSecret(user: AuthUser, uuid: string): Promise<WebhookSecretResponseDto> {
    const endpoint = await this.ownEndpoint(user, uuid);
    const secret = newWebhookSecret();
    await this.repository.setSecret(endpoint.uuid, this.secrets.seal(secret, endpoint.uuid));
    return { secret };
  }

  /** Queues a `ping` event to the endpoint, whatever events it asked for. */
  async pingWebhook(user: AuthUser, uuid: string): Promise<WebhookDeliveryResponseDto> {
    const endpoint = this.enabled(await this.ownEndpoint(user, uuid));
    const { attemptUuid } = await this.dataSource.transaction((manager) =>
      this.queue.enqueueEvent(manager, endpoint.uuid, 'ping', {
        webhook: { uuid: endpoint.uuid, url: endpoint.url },
      }),
    );
    return this.deliveryAnswer(attemptUuid);
  }

  async listWebhookDeliveries(
    user: AuthUser,
    uuid: string,
    query: ListWebhookDeliveriesQueryDto,
  ): Promise<ApiResult<WebhookDeliveryResponseDto[]>> {
    const endpoint = await this.ownEndpoint(user, uuid);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const { rows, total } = await this.repository.listDeliveries(endpoint.uuid, page, perPage);
    return new ApiResult(
      rows.map(toWebhookDeliveryResponse),
      undefined,
      pageMeta(page, perPage, total),
    );
  }

  /**
   * Sends the event of any of its attempts again: a new single attempt, due
   * at once, with the same `webhook-id` and body, signed with the current secret.
   */
  async redeliverWebhook(
    user: AuthUser,
    uuid: string,
    deliveryUuid: string,
  ): Promise<WebhookDeliveryResponseDto> {
    const endpoint = await this.ownEndpoint(user, uuid);
    const delivery = isUuid(deliveryUuid)
      ? await this.repository.findDelivery(deliveryUuid.toLowerCase())
      : null;
    if (!delivery || delivery.endpointUuid !== endpoint.uuid) {
      throw ApiError.notFound('The delivery does not exist.');
    }
    this.enabled(endpoint);
    const attemptUuid = await this.dataSource.transaction((manager) =>
      this.queue.enqueueAttempt(
        manager,
        delivery.eventUuid,
        endpoint.uuid,
        this.clock.now(),
        this.config.webhookRetryScheduleSeconds.length,
      ),
    );
    return this.deliveryAnswer(attemptUuid);
  }

  private async deliveryAnswer(attemptUuid: string): Promise<WebhookDeliveryResponseDto> {
    const row = await this.repository.findDelivery(attemptUuid);
    if (!row) throw new Error(`Delivery ${attemptUuid} vanished after it was queued`);
    return toWebhookDeliveryResponse(row);
  }

  /** Another user's endpoint is not acknowledged at all: 404, like one that does not exist. */
  private async ownEndpoint(user: AuthUser, uuid: string): Promise<WebhookEndpointEntity> {
    const endpoint = isUuid(uuid) ? await this.repository.findEndpoint(uuid.toLowerCase()) : null;
    if (!endpoint || endpoint.ownerUuid !== user.uuid) {
      throw ApiError.notFound('The webhook endpoint does not exist.');
    }
    return endpoint;
  }

  private enabled(endpoint: WebhookEndpointEntity): WebhookEndpointEntity {
    if (!endpoint.enabled) {
      throw ApiError.unprocessable('The webhook endpoint is disabled; enable it first.', [
        { field: 'enabled', message: 'the endpoint is disabled' },
      ]);
    }
    return endpoint;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await webhookUrlProblem(url, this.config.webhookAllowPrivateUrls);
    if (problem) {
      throw ApiError.validation(
        [{ field: 'url', message: `url ${problem}` }],
        `The url ${problem}.`,
      );
    }
  }
}
