export { StorefrontService } from './storefront.service';
export type { EntityRecord } from './entity-record.entity';
