import { Module } from '@nestjs/common';
import { EntityController } from './entity.controller';
import { EntityRepository } from './entity.repository';
import { EntityService } from './entity.service';
import { EntityTypeRegistry } from './entity-types';
import { FeaturedUrlChecks } from './featured-url-check';
import { StorefrontCache } from './storefront-cache';
import { StorefrontDocumentRepository } from './storefront-document.repository';
import { StorefrontController } from './storefront.controller';
import { StorefrontService } from './storefront.service';

/**
 * Businesses, menus and items (API.md §4, D11–D17). Exports EntityService
 * (findOrderableMenu for the orders module), the type registry, and
 * FeaturedUrlChecks for the files module to register its check with.
 */
@Module({
  controllers: [EntityController, StorefrontController],
  providers: [
    EntityTypeRegistry,
    EntityRepository,
    EntityService,
    StorefrontCache,
    StorefrontDocumentRepository,
    StorefrontService,
    FeaturedUrlChecks,
  ],
  exports: [EntityService, EntityTypeRegistry, FeaturedUrlChecks],
})
export class EntityModule {}
