import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../http/page-query.dto';
import { maskPhone } from '../../common/phone-number';
import { GUEST_MESSAGE_STATUSES, GuestMessageStatus } from '../entities';
import { GuestMessageRow } from '../guest-message.repository';

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

export class ListGuestMessagesQueryDto extends PageQueryDto {
  /** First local date (the business's time zone), `YYYY-MM-DD`; default 30 days before `to`. */
  @ApiPropertyOptional({ example: '2026-11-01' })
  @IsOptional()
  @Matches(LOCAL_DATE, { message: 'from must be a date such as 2026-11-01' })
  from?: string;

  /** Last local date, included, `YYYY-MM-DD`; default today. */
  @ApiPropertyOptional({ example: '2026-11-30' })
  @IsOptional()
  @Matches(LOCAL_DATE, { message: 'to must be a date such as 2026-11-30' })
  to?: string;
}

export class GuestMessageResponseDto {
  @ApiProperty({ format: 'uuid' })
  uuid!: string;

  @ApiProperty({ format: 'uuid' })
  order_uuid!: string;

  @ApiProperty({ enum: ['accepted', 'ready', 'out_for_delivery', 'rejected'] })
  event!: string;

  @ApiProperty({ enum: ['whatsapp', 'sms'] })
  channel!: string;

  /** The guest's number, every digit masked but the last four. */
  @ApiProperty({ example: '+*********4567' })
  to!: string;

  @ApiProperty({ enum: GUEST_MESSAGE_STATUSES })
  status!: GuestMessageStatus;

  /** The provider that took it: `whatsapp`, `termii`, `twilio` or `log`. */
  @ApiProperty({ nullable: true, type: String })
  provider!: string | null;

  @ApiProperty({ nullable: true, type: String })
  provider_message_id!: string | null;

  @ApiProperty({ nullable: true, type: String })
  error!: string | null;

  /** Sent on the business's next channel after the guest's failed for good. */
  @ApiProperty()
  fallback!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export function toGuestMessageResponse(row: GuestMessageRow): GuestMessageResponseDto {
  return {
    uuid: row.uuid,
    order_uuid: row.orderUuid,
    event: row.event,
    channel: row.channel,
    to: maskPhone(row.phone),
    status: row.status,
    provider: row.provider,
    provider_message_id: row.providerMessageId,
    error: row.error,
    fallback: row.fallback,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

export class StopMessagesResponseDto {
  /** The number that gets no more messages from this business (masked); null when the order had no consent. */
  @ApiProperty({ nullable: true, type: String, example: '+*********4567' })
  to!: string | null;

  @ApiProperty({ format: 'uuid' })
  business_uuid!: string;

  /** Whether a number was stopped (false: the order's guest never consented, nothing to stop). */
  @ApiProperty()
  stopped!: boolean;
}

export class WhatsAppWebhookReceiptDto {
  /** Statuses that moved a message of the log. */
  @ApiProperty({ type: 'integer' })
  updated!: number;
}
