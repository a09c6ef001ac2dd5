import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhook-events';
import { WebhookDeliveryEntity } from '../entities';

const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;

export class ListWebhookDeliveriesQueryDto {
  /** From 1. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  page?: number;

  /** Default 20, at most 100. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @Max(100)
  per_page?: number;
}

/** One attempt to deliver one event. */
export class WebhookDeliveryResponseDto {
  /** The attempt's uuid (give it to redeliver). */
  uuid!: string;
  /** The event's id, sent as `webhook-id`: the same for every attempt of the event. */
  event_id!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES })
  event_type!: string;
  /** 1 for the first attempt, counting up with retries and redeliveries. */
  @ApiProperty({ type: 'integer' })
  attempt!: number;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status!: string;
  /** The receiver's HTTP status; null when no answer came (refused, timed out, unreachable). */
  @ApiProperty({ type: 'integer', nullable: true })
  response_status!: number | null;
  /** Why the attempt failed, in words. */
  error!: string | null;
  /** The start of the receiver's answer body, at most 1 KB. */
  response_body!: string | null;
  @ApiProperty({ type: 'integer', nullable: true })
  duration_ms!: number | null;
  created_at!: string;
  /** Pending: when it is due. Failed: when the retry is due, null when none follows. */
  next_attempt_at!: string | null;
}

export function toWebhookDeliveryResponse(
  row: WebhookDeliveryEntity & { eventType: string },
): WebhookDeliveryResponseDto {
  return {
    uuid: row.uuid,
    event_id: row.eventUuid,
    event_type: row.eventType,
    attempt: row.attempt,
    status: row.status,
    response_status: row.responseStatus,
    error: row.error,
    response_body: row.responseBody,
    duration_ms: row.durationMs,
    created_at: new Date(row.createdAt).toISOString(),
    next_attempt_at: row.nextAttemptAt ? new Date(row.nextAttemptAt).toISOString() : null,
  };
}
