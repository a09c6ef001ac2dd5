import { OrderSummaryDto } from '../dto/order-response.dto';
import { isUuid } from '../../common/uuid';

export const ORDER_STREAM_EVENT_TYPES = ['order.created', 'order.updated'] as const;
export type OrderStreamEventType = (typeof ORDER_STREAM_EVENT_TYPES)[number];

/** One PostgreSQL NOTIFY channel per event kind. */
export const CHANNEL_OF: Readonly<Record<OrderStreamEventType, string>> = {
  'order.created': 'order_created',
  'order.updated': 'order_updated',
};

/** What travels from the committing process to every process's SSE clients. */
export interface OrderStreamEvent {
  /** The SSE `id:` of the event. */
  id: string;
  type: OrderStreamEventType;
  /** Only this user's streams receive it. */
  ownerUuid: string;
  order: OrderSummaryDto;
  /** The tab the order is a round of: that tab's party streams receive it too. */
  tabUuid?: string | null;
}

/** Reads an event from a NOTIFY payload; null for anything that is not one. */
export function parseOrderStreamEvent(payload: string | undefined): OrderStreamEvent | null {
  if (!payload) return null;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const event = value as Partial<OrderStreamEvent>;
  if (
    typeof event.id !== 'string' ||
    !(ORDER_STREAM_EVENT_TYPES as readonly unknown[]).includes(event.type) ||
    typeof event.ownerUuid !== 'string' ||
    !isUuid(event.ownerUuid) ||
    !event.order ||
    typeof event.order !== 'object'
  ) {
    return null;
  }
  return event as OrderStreamEvent;
}

/** One Server-Sent Events frame; `data` is a single JSON line. */
export function sseFrame(event: OrderStreamEvent): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.order)}\n\n`;
}
