import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { NotificationService } from '../notification';
import { PermanentDeliveryError } from '../outbox/outbox-retry';
import { OutboxWorker } from '../outbox/outbox.worker';
import { DISABLE_AFTER_FAILURES } from './domain/webhook-events';
import { SecretBox } from './domain/secret-box';
import { webhookDeliveriesTotal } from './webhook-metrics';
import { parseWebhookPayload, WEBHOOK_OUTBOX_KIND, WebhookQueue } from './webhook-queue';
import { SendResult, sendWebhook } from './webhook-sender';
import { AttemptToSend, WebhookRepository } from './webhook.repository';

/**
 * Makes webhook attempts for the outbox worker. Each outbox row is one
 * attempt; the webhook schedule (WEBHOOK_RETRY_SCHEDULE, seconds between
 * attempts) is kept here rather than by the outbox's own back-off: a failed
 * attempt is recorded and the next one enqueued, due after the next wait,
 * in one transaction, and the outbox row counts as done. After the last wait
 * the delivery is failed; 20 failed deliveries in a row disable the endpoint
 * and tell its owner.
 *
 * An attempt is sent only while its row is pending, so an outbox row taken
 * again after a crash does not resend a recorded attempt; a crash between
 * sending and recording resends it, with the same `webhook-id` for the
 * receiver to recognise.
 */
// R39: outbound webhooks.
@Injectable()
export class WebhookDeliveryService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly repository: WebhookRepository,
    private readonly queue: WebhookQueue,
    private readonly notifications: NotificationService,
    private readonly secrets: SecretBox,
    private readonly worker: OutboxWorker,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.worker.registerHandler(WEBHOOK_OUTBOX_KIND, (payload) => this.deliver(payload));
  }

  async deliver(payload: Record<string, unknown>): Promise<void> {
    const job = parseWebhookPayload(payload);
    if (!job)
      throw new PermanentDeliveryError('webhook payload needs attempt_uuid and retries_used');
    const attempt = await this.repository.findAttemptToSend(job.attempt_uuid);
    // Gone with its endpoint, or recorded by an earlier run of this row.
    if (!attempt || attempt.status !== 'pending') return;
    const result = attempt.enabled
      ? await this.send(attempt)
      : { ok: false, status: null, body: null, error: 'The endpoint is disabled.', durationMs: 0 };
    await this.record(attempt, result, job.retries_used);
  }

  private async send(attempt: AttemptToSend): Promise<SendResult> {
    let signer: Webhook;
    try {
      signer = new Webhook(this.secrets.open(attempt.secretCiphertext, attempt.endpointUuid));
    } catch {
      return {
        ok: false,
        status: null,
        body: null,
        error: 'The signing secret cannot be read; rotate the secret.',
        durationMs: 0,
      };
    }
    const timestamp = this.clock.now();
    const signature = signer.sign(attempt.eventUuid, timestamp, attempt.body);
    return sendWebhook(
      attempt.url,
      {
        'webhook-id': attempt.eventUuid,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      attempt.body,
      { allowPrivate: this.config.webhookAllowPrivateUrls },
    );
  }

  private async record(
    attempt: AttemptToSend,
    result: SendResult,
    retriesUsed: number,
  ): Promise<void> {
    const schedule = this.config.webhookRetryScheduleSeconds;
    const retryAt =
      !result.ok && attempt.enabled && retriesUsed < schedule.length
        ? new Date(this.clock.nowMs() + schedule[retriesUsed] * 1000)
        : null;
    let disabled = false;
    const recorded = await this.dataSource.transaction(async (manager) => {
      const finished = await this.repository.finishAttempt(manager, attempt.uuid, {
        status: result.ok ? 'succeeded' : 'failed',
        responseStatus: result.status,
        error: result.error,
        responseBody: result.body,
        durationMs: result.durationMs,
        nextAttemptAt: retryAt,
      });
      if (!finished) return false;
      if (result.ok) {
        await this.repository.resetFailures(manager, attempt.endpointUuid);
      } else if (retryAt) {
        await this.queue.enqueueAttempt(
          manager,
          attempt.eventUuid,
          attempt.endpointUuid,
          retryAt,
          retriesUsed + 1,
        );
      } else if (attempt.enabled) {
        disabled = await this.repository.countFailure(
          manager,
          attempt.endpointUuid,
          DISABLE_AFTER_FAILURES,
        );
        if (disabled) {
          await this.notifications.notify(manager, {
            userUuid: attempt.ownerUuid,
            kind: 'webhook.disabled',
            title: 'Webhook endpoint disabled',
            body: `${attempt.url} failed ${DISABLE_AFTER_FAILURES} deliveries in a row and was disabled. Fix it, then enable it again.`,
            data: { webhook_uuid: attempt.endpointUuid, url: attempt.url },
          });
        }
      }
      return true;
    });
    if (!recorded) return;
    webhookDeliveriesTotal.inc({ result: result.ok ? 'succeeded' : retryAt ? 'retry' : 'failed' });
    if (!result.ok) {
      this.logger.warn(
        `Webhook ${attempt.eventType} ${attempt.eventUuid} attempt ${attempt.attempt} to endpoint ${attempt.endpointUuid} failed: ${result.error}` +
          (retryAt ? `; retry at ${retryAt.toISOString()}` : '; no retry left'),
      );
    }
    if (disabled) {
      this.logger.warn(
        `Webhook endpoint ${attempt.endpointUuid} disabled after ${DISABLE_AFTER_FAILURES} failed deliveries`,
      );
    }
  }
}
