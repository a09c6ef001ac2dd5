/*
 * The entity module's front door: what other modules may use of it.
 */
import { EntityRecord } from './entity-record.entity';
import { StorefrontMarkEntity } from './storefront-mark.entity';

export { EntityModule } from './entity.module';
export { EntityService } from './entity.service';
export { StorefrontService } from './storefront.service';
export { FeaturedUrlChecks } from './featured-url-check';
export { EntityRecord };
export { EXTRA_DATA_DOCUMENTS } from './extra-data-openapi';
export type { ExtraDataDocument } from './extra-data-openapi';

/** The entity module's tables, registered with the database by the composition root. */
export const ENTITY_ENTITIES = [EntityRecord, StorefrontMarkEntity];
export type { OrderableMenu } from './orderable-menu';
export { readBusinessView, readMenuItemView, readMenuView } from './extra-data-views';
export { ALLERGENS } from './domain/menu-labels';
export { orderLanguage } from './storefront-views';
export type {
  BusinessView,
  MenuItemView,
  MenuView,
  OptionGroupView,
  OptionView,
} from './extra-data-views';
export { deliveryModeMinimum } from './delivery-quote.service';
export { locationOf, quoteZone } from './domain/delivery-zones';
export type {
  DeliveryLocation,
  DeliveryZone,
  OutsideDetail,
  ZoneQuote,
} from './domain/delivery-zones';
export { DeliveryLocationDto, DeliveryZoneRefDto } from './dto/delivery-quote.dto';
export {
  AVAILABILITY_KEY,
  AVAILABILITY_MODES,
  availabilityAt,
  busyMinutesAt,
} from './domain/availability';
export type { Availability, AvailabilityMode } from './domain/availability';
export { readStockSetting, STOCK_MAX_QUANTITY } from './domain/stock-setting';
export type { StockMode, StockSetting } from './domain/stock-setting';
export type { StorefrontStockSource } from './storefront-stock';
export { dayNumberOf, instantOfLocal } from './domain/time-zone';
export { DEFAULT_KITCHEN, readKitchen } from './domain/kitchen-setting';
export type { KitchenSetting, KitchenStation } from './domain/kitchen-setting';
