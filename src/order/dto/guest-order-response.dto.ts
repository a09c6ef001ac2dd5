import { OmitType } from '@nestjs/swagger';
import { OrderEntity, OrderEventEntity } from '../entities';
import { OrderHistoryEntryDto, toOrderHistoryEntry } from './order-history-entry.dto';
import { OrderParts, OrderResponseDto, toOrderResponse } from './order-response.dto';

/**
 * The order as its guest may see it: everything but the owner's own note;
 * its history names who acted by role only (`by` is always null).
 */
export class GuestOrderResponseDto extends OmitType(OrderResponseDto, [
  'owner_note',
  'tickets',
  'created_by',
] as const) {}

/**
 * The history as the guest sees it: without the owner's note and its
 * entries, and without the uuid of the owner or team member who acted
 * (`by` is null; the `actor` role stays).
 */
// R37: the guest's view.
export function toGuestHistory(events: readonly OrderEventEntity[]): OrderHistoryEntryDto[] {
  return events
    .filter((event) => event.field !== 'owner_note')
    .map((event) => ({ ...toOrderHistoryEntry(event), by: null }));
}

/**
 * The one mapping of every answer a guest gets about their order (its read,
 * its cancel, the payment verify and checkout retry): the owner's note and
 * the history entries of that note are the restaurant's own, and the uuids
 * of the people who work there are theirs; neither leaves through a
 * guest's credential.
 */
export function toGuestOrderResponse(order: OrderEntity, parts: OrderParts): GuestOrderResponseDto {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { owner_note, created_by, history, tickets, ...rest } = toOrderResponse(order, {
    ...parts,
    events: [],
  });
  return { ...rest, history: toGuestHistory(parts.events) };
}
