import type { Availability } from '../entity';

/**
 * A business's availability was changed through its route, published in the
 * transaction of the change (outbound webhooks write their events with it).
 */
export interface AvailabilityChanged {
  businessUuid: string;
  /** The business's owner, whose webhook endpoints hear of it. */
  ownerUuid: string;
  availability: Availability & { changed_by: string; changed_at: string };
}

declare module '../database/event-bus' {
  interface AppEvents {
    'business.availability_changed': AvailabilityChanged;
  }
}
