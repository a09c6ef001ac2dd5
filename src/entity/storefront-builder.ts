import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';
import { StorefrontResponseDto, toPublicEntityResponse } from './dto/entity-response.dto';
import { MAX_PER_PAGE } from './dto/list-entities-query.dto';
import { EntityTypeRegistry } from './entity-types';
import { makeDocument, StorefrontAnswerInputs } from './storefront-document';
import { StorefrontDocumentRepository, StoredDocument } from './storefront-document.repository';
import { StorefrontRepository } from './storefront.repository';
import { StorefrontStockSource, withStock } from './storefront-stock';

export const STOREFRONT_MESSAGE = 'Storefront found';

/**
 * The storefront's document made from the records: the business, its menu
 * and the menu's items (with their stock, when the stock module reads it),
 * read in one snapshot and stored unless a write came after it.
 */
@Injectable()
export class StorefrontBuilder {
  /** Items' stock, when the stock module has said how to read it. */
  private stock: StorefrontStockSource | null = null;

  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: StorefrontRepository,
    private readonly documents: StorefrontDocumentRepository,
  ) {}

  /** The stock module tells the storefront how to read items' stock (see StorefrontStockSource). */
  useStock(source: StorefrontStockSource): void {
    this.stock = source;
  }

  /**
   * Builds the document from the records, in at most three indexed queries
   * in one snapshot, and stores it unless a write came after that snapshot.
   */
  async build(businessMetaKey: string, menuMetaKey: string): Promise<StoredDocument> {
    const { built, result } = await this.documents.inSnapshot(
      businessMetaKey,
      menuMetaKey,
      (manager) => this.readRecords(businessMetaKey, menuMetaKey, manager),
      (records) => records.menu.uuid,
    );
    const { business, menu, items, stock } = result;
    // open_now, next_change_at, availability and the wait are added to each answer, never stored. The
    // document is public and stored as built, so private settings leave here.
    const data: Omit<
      StorefrontResponseDto,
      'open_now' | 'next_change_at' | 'availability' | 'estimated_wait_minutes'
    > = {
      business: toPublicEntityResponse(business),
      menu: toPublicEntityResponse(menu),
      items: items
        .slice(0, MAX_PER_PAGE)
        .map((item) => withStock(toPublicEntityResponse(item), stock?.remaining.get(item.uuid))),
      items_truncated: items.length > MAX_PER_PAGE,
    };
    const inputs: StorefrontAnswerInputs = {};
    const extra = business.extraData;
    if ('opening_hours' in extra) inputs.opening_hours = extra.opening_hours;
    if ('accepting_orders' in extra) inputs.accepting_orders = extra.accepting_orders;
    if ('availability' in extra) inputs.availability = extra.availability;
    const fulfilment = menu.extraData.fulfilment as Record<string, unknown> | undefined;
    if (fulfilment && typeof fulfilment === 'object' && 'prep_time_minutes' in fulfilment) {
      inputs.prep_time_minutes = fulfilment.prep_time_minutes;
    }
    if (menu.extraData.languages) inputs.languages = menu.extraData.languages;
    if (stock?.untilMs) inputs.stock_until = stock.untilMs;
    const document = await makeDocument(data, STOREFRONT_MESSAGE, inputs);
    const stored = { document, businessUuid: business.uuid, menuUuid: menu.uuid };
    await this.documents.store(businessMetaKey, menuMetaKey, built, stored);
    return stored;
  }

  private async readRecords(businessMetaKey: string, menuMetaKey: string, manager: EntityManager) {
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
      manager,
    );
    if (!business) throw ApiError.notFound('No public business has this meta_key.');
    const menu = await this.repository.findPublicChildByMetaKey(
      this.types.of('business_menu'),
      business.uuid,
      menuMetaKey,
      manager,
    );
    if (!menu) throw ApiError.notFound('This business has no public menu with this meta_key.');
    // One more than a list page holds tells whether the menu was cut.
    const items = await this.repository.listPublicChildrenBySortPosition(
      this.types.of('business_menu_item'),
      menu.uuid,
      MAX_PER_PAGE + 1,
      manager,
    );
    // In the same snapshot: the document is exactly as of its version, stock included.
    const stock = this.stock
      ? await this.stock.read(business, items.slice(0, MAX_PER_PAGE), manager)
      : null;
    return { business, menu, items, stock };
  }
}
