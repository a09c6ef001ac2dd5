export { EntityService } from './entity.service';
export { StorefrontService } from './storefront.service';
export type { EntityRecord } from './entity-record.entity';
