/** The event types an endpoint may ask for. */
export const WEBHOOK_EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'order.payment_changed',
  'business.availability_changed',
  'stock.low',
  'item.sold_out',
  'tab.closed',
  'ping',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** At most this many endpoints per user. */
export const MAX_ENDPOINTS_PER_USER = 10;

/** Consecutive failed deliveries after which an endpoint is disabled and its owner told. */
export const DISABLE_AFTER_FAILURES = 20;

/** What an order change sends: placement, a status move, a payment move; a note sends nothing. */
export function eventOfChange(change: string): WebhookEventType | null {
  switch (change) {
    case 'created':
      return 'order.created';
    case 'status':
      return 'order.status_changed';
    case 'payment':
      return 'order.payment_changed';
    default:
      return null;
  }
}
