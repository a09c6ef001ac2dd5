import { Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { DeliveryQuoteController } from './delivery-quote.controller';
import { DeliveryQuoteService } from './delivery-quote.service';
import { EntityAccess } from './entity-access';
import { EntityController } from './entity.controller';
import { EntityRepository } from './entity.repository';
import { EntityListService } from './entity-list.service';
import { EntityService } from './entity.service';
import { EntityTypeRegistry } from './entity-types';
import { FeaturedUrlChecks } from './featured-url-check';
import { ListPageCache } from './list-page-cache';
import { MenuZones } from './menu-zones';
import { MenuTransferController } from './menu-transfer.controller';
import { MenuTransferRepository } from './menu-transfer.repository';
import { MenuTransferService } from './menu-transfer.service';
import { OrderableMenuRepository } from './orderable-menu.repository';
import { StorefrontCache } from './storefront-cache';
import { StorefrontDocumentRepository } from './storefront-document.repository';
import { StorefrontController } from './storefront.controller';
import { StorefrontQrController } from './storefront-qr.controller';
import { QrRenderer } from './qr-renderer';
import { StorefrontQrService } from './storefront-qr.service';
import { StorefrontRepository } from './storefront.repository';
import { StorefrontService } from './storefront.service';
import { StorefrontAnswers } from './storefront-answers';
import { StorefrontBuilder } from './storefront-builder';
import { StorefrontViewAnswers } from './storefront-view-answers';

/**
 * Businesses, menus and items, and the public storefront. Exports
 * EntityService (findOrderableMenu for the orders module), StorefrontService
 * (whether a business is open, for placement), the type registry, and
 * FeaturedUrlChecks for the files module to register its check with.
 */
@Module({
  imports: [TeamModule],
  controllers: [
    EntityController,
    StorefrontController,
    StorefrontQrController,
    DeliveryQuoteController,
    MenuTransferController,
  ],
  providers: [
    EntityAccess,
    EntityTypeRegistry,
    EntityRepository,
    OrderableMenuRepository,
    StorefrontRepository,
    EntityService,
    EntityListService,
    ListPageCache,
    StorefrontCache,
    StorefrontDocumentRepository,
    StorefrontBuilder,
    StorefrontAnswers,
    StorefrontViewAnswers,
    StorefrontService,
    StorefrontQrService,
    QrRenderer,
    FeaturedUrlChecks,
    MenuZones,
    DeliveryQuoteService,
    MenuTransferRepository,
    MenuTransferService,
  ],
  exports: [EntityService, EntityTypeRegistry, FeaturedUrlChecks, StorefrontService],
})
export class EntityModule {}
