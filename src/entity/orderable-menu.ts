import { DeliveryZone } from './domain/delivery-zones';
import { EntityRecord } from './entity-record.entity';

/**
 * What the orders module needs to price an order: a
 * public menu, its public business, and those of the asked items that are
 * public items of that menu.
 */
export interface OrderableMenu {
  /** The menu; its extra_data without `fulfilment.delivery.zones`, which are in `deliveryZones`. */
  menu: EntityRecord;
  business: EntityRecord;
  /** Only the asked uuids that are public items of this menu; missing ones are simply absent. */
  items: EntityRecord[];
  /**
   * Whether the menu has any public item of category `Delivery` (a delivery
   * area with its fee); undefined when the caller did not ask (see
   * findOrderableMenu's `deliveryAreas`).
   */
  hasDeliveryItems: boolean | undefined;
  /** The menu's delivery zones in their order, prepared for lookups; null when it has none. */
  deliveryZones: readonly DeliveryZone[] | null;
}
