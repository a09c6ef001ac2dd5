import { ApiProperty } from '@nestjs/swagger';
import { OrderEventEntity } from '../entities';
import { iso } from './iso-time';

/** One change of an order: a field, its old and new value, who and when. */
export class OrderHistoryEntryDto {
  /**
   * `payment` entries carry values of `payment.status`; `payment_status`
   * appears only on entries made before payments were collected.
   */
  @ApiProperty({
    enum: ['status', 'payment', 'payment_status', 'owner_note', 'estimated_ready_at'],
  })
  field!: string;
  /** Null for the first status of a new order. */
  from!: string | null;
  to!: string | null;
  /**
   * The user who made the change: the business owner or a member of its
   * team; null for the guest, the payment provider or the service, and in
   * every answer a guest gets (the guest sees who acted by `actor` only).
   */
  by!: string | null;
  /** Who made the change: the owner, a manager or staff member (by their role), the guest, the provider or the service. */
  @ApiProperty({ enum: ['owner', 'manager', 'staff', 'guest', 'provider', 'system'] })
  actor!: string;
  /** Why the service made the change (`not_accepted_in_time`); present only then. */
  @ApiProperty({ required: false, example: 'not_accepted_in_time' })
  reason?: string;
  at!: string;
}

export function toOrderHistoryEntry(event: OrderEventEntity): OrderHistoryEntryDto {
  return {
    field: event.field,
    from: event.fromValue,
    to: event.toValue,
    by: event.actorUuid,
    actor: event.actor,
    ...(event.reason ? { reason: event.reason } : {}),
    at: iso(event.createdAt),
  };
}
