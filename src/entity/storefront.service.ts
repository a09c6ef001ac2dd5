import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { Transaction } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import {
  BusinessOpenState,
  businessAvailability,
  businessOpenState,
  businessRequestedTimeProblem,
  businessSlotsOfDay,
} from './business-time';
import { Availability } from './domain/availability';
import { SlotRules } from './domain/requested-time';
import { EntityRecord } from './entity-record.entity';
import { EntityTypeRegistry } from './entity-types';
import { StorefrontAnswers, StorefrontReply, StorefrontRequest } from './storefront-answers';
import { StorefrontBuilder } from './storefront-builder';
import { StorefrontCache } from './storefront-cache';
import { StorefrontAnswer } from './storefront-document';
import { StorefrontDocumentRepository, StoredDocument } from './storefront-document.repository';
import { StorefrontRepository } from './storefront.repository';
import { StorefrontStockSource } from './storefront-stock';
import { StorefrontView } from './storefront-views';
import { StorefrontViewAnswers } from './storefront-view-answers';

export type { StorefrontAnswer } from './storefront-document';
export type { BusinessOpenState } from './business-time';
export type { StorefrontReply, StorefrontRequest } from './storefront-answers';
export { STOREFRONT_MESSAGE } from './storefront-builder';

/**
 * The storefront: business, menu and sorted items by the two meta_keys of
 * the storefront URL (StorefrontAnswers keeps them, StorefrontBuilder makes
 * their documents, StorefrontViewAnswers their languages and allergen
 * views), and whether a business is open and which slots it takes, at the
 * service clock's now.
 */
// R17: storefront in one call.
@Injectable()
export class StorefrontService {
  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: StorefrontRepository,
    private readonly documents: StorefrontDocumentRepository,
    private readonly cache: StorefrontCache<StorefrontAnswer>,
    private readonly clock: Clock,
    private readonly builder: StorefrontBuilder,
    private readonly answers: StorefrontAnswers,
    private readonly views: StorefrontViewAnswers,
  ) {}

  /** The stock module tells the storefront how to read items' stock (see StorefrontStockSource). */
  useStock(source: StorefrontStockSource): void {
    this.builder.useStock(source);
  }

  /**
   * Call in the transaction of a change of stock: marks the stored
   * storefronts of these menus stale in that transaction (a write held for
   * its commit, so a build that read the counts before the change is never
   * read as fresh), and drops their cached answers in every other process
   * at its commit (a NOTIFY held with it) and here once it has committed. A
   * read that starts after the change has answered never shows what
   * remained before it.
   */
  async stockChanged(tx: Transaction, menuUuids: ReadonlyArray<string | null>): Promise<void> {
    const menus = [...new Set(menuUuids.filter((uuid): uuid is string => !!uuid))];
    if (menus.length === 0) return;
    await this.documents.markMenusStale(tx.manager, menus);
    await this.cache.invalidateAtCommit(tx, menus);
  }

  /** Whether a business is open now (see businessOpenState). */
  openStateOf(business: Pick<EntityRecord, 'extraData'>): BusinessOpenState {
    return businessOpenState(business, this.clock);
  }

  /** The kitchen's switch of a business now (see businessAvailability). */
  availabilityOf(business: Pick<EntityRecord, 'extraData'>): Availability {
    return businessAvailability(business, this.clock);
  }

  /** Why a business cannot take an order for `requested` now, or null (see businessRequestedTimeProblem). */
  requestedTimeProblem(
    business: Pick<EntityRecord, 'extraData'>,
    rules: SlotRules,
    requested: Date,
  ): string | null {
    return businessRequestedTimeProblem(business, rules, requested, this.clock);
  }

  /** The slots of a local day of a business that can still be ordered (see businessSlotsOfDay). */
  slotsOfDay(
    business: Pick<EntityRecord, 'extraData'>,
    rules: SlotRules,
    date: string,
  ): Array<{ start: Date; startText: string; endText: string }> | undefined {
    return businessSlotsOfDay(business, rules, date, this.clock);
  }

  /** A public menu of a public business by the storefront's meta_keys; 404 otherwise. */
  async publicMenu(
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<{ business: EntityRecord; menu: EntityRecord }> {
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
    );
    const menu = business
      ? await this.repository.findPublicChildByMetaKey(
          this.types.of('business_menu'),
          business.uuid,
          menuMetaKey,
        )
      : null;
    if (!business || !menu) {
      throw ApiError.notFound('This business has no public menu with this meta_key.');
    }
    return { business, menu };
  }

  /** The storefront in a language and without some allergens (R118, R119; see StorefrontViewAnswers). */
  getStorefrontView(
    businessMetaKey: string,
    menuMetaKey: string,
    request: StorefrontRequest,
    view: StorefrontView,
  ): Promise<StorefrontReply> {
    return this.views.getStorefrontView(businessMetaKey, menuMetaKey, request, view);
  }

  /** The plain storefront, or 304 for the current ETag (see StorefrontAnswers). */
  getStorefront(
    businessMetaKey: string,
    menuMetaKey: string,
    request: StorefrontRequest,
  ): Promise<StorefrontReply> {
    return this.answers.getStorefront(businessMetaKey, menuMetaKey, request);
  }

  /** Builds and stores the document from the records (see StorefrontBuilder). */
  build(businessMetaKey: string, menuMetaKey: string): Promise<StoredDocument> {
    return this.builder.build(businessMetaKey, menuMetaKey);
  }
}
