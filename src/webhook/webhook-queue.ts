import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { OutboxService } from '../outbox/outbox.service';
import { WebhookEventType } from './domain/webhook-events';
import { WebhookRepository } from './webhook.repository';

/** The outbox kind whose rows are webhook delivery attempts. */
export const WEBHOOK_OUTBOX_KIND = 'webhook';

/**
 * What an outbox row of kind `webhook` carries: the attempt to make, and how
 * many waits of the retry schedule the event has used (a redelivery starts
 * with all of them used: it is a single attempt).
 */
export interface WebhookOutboxPayload {
  attempt_uuid: string;
  retries_used: number;
}

export function parseWebhookPayload(payload: Record<string, unknown>): WebhookOutboxPayload | null {
  const { attempt_uuid: attemptUuid, retries_used: retriesUsed } = payload;
  if (typeof attemptUuid !== 'string' || typeof retriesUsed !== 'number') return null;
  return { attempt_uuid: attemptUuid, retries_used: retriesUsed };
}

/**
 * Writes webhook events and attempts in the caller's transaction, each
 * attempt with its outbox row: nothing leaves unless the transaction commits,
 * and nothing committed is lost.
 */
@Injectable()
export class WebhookQueue {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * A new event for one endpoint, its id fixed now (it is the `webhook-id` of
   * every attempt), and its first attempt due at once. Answers that attempt's uuid.
   */
  async enqueueEvent(
    manager: EntityManager,
    endpointUuid: string,
    type: WebhookEventType,
    data: Record<string, unknown>,
  ): Promise<{ eventUuid: string; attemptUuid: string }> {
    const eventUuid = randomUUID();
    const createdAt = this.clock.now();
    const body = JSON.stringify({ id: eventUuid, type, created_at: createdAt.toISOString(), data });
    await this.repository.insertEvent(manager, {
      uuid: eventUuid,
      endpointUuid,
      type,
      body,
      createdAt,
    });
    const attemptUuid = await this.enqueueAttempt(manager, eventUuid, endpointUuid, createdAt, 0);
    return { eventUuid, attemptUuid };
  }

  /** Another attempt of an existing event, due at `dueAt`. */
  async enqueueAttempt(
    manager: EntityManager,
    eventUuid: string,
    endpointUuid: string,
    dueAt: Date,
    retriesUsed: number,
  ): Promise<string> {
    const attempt = await this.repository.nextAttemptNumber(manager, eventUuid);
    const attemptUuid = await this.repository.insertAttempt(manager, {
      eventUuid,
      endpointUuid,
      attempt,
      createdAt: this.clock.now(),
      dueAt,
    });
    const payload: WebhookOutboxPayload = { attempt_uuid: attemptUuid, retries_used: retriesUsed };
    // The endpoint is the row's receiver: a slow one holds only a few delivery slots.
    await this.outbox.enqueueAt(manager, WEBHOOK_OUTBOX_KIND, { ...payload }, dueAt, endpointUuid);
    return attemptUuid;
  }
}
