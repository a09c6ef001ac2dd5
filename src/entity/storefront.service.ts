import { Injectable } from '@nestjs/common';
import { ApiError } from '../http/api-error';
import { StorefrontResponseDto, toEntityResponse } from './dto/entity-response.dto';
import { MAX_PER_PAGE } from './dto/list-entities-query.dto';
import { EntityRepository } from './entity.repository';
import { EntityTypeRegistry } from './entity-types';
import { StorefrontCache } from './storefront-cache';

/**
 * D17: business, menu and sorted items by the two meta_keys of the
 * storefront URL, in at most three indexed queries, behind a short cache that
 * every entity write invalidates.
 */
@Injectable()
export class StorefrontService {
  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: EntityRepository,
    private readonly cache: StorefrontCache<StorefrontResponseDto>,
  ) {}

  async getStorefront(
    businessMetaKey: string,
    menuMetaKey: string,
  ): Promise<StorefrontResponseDto> {
    const key = JSON.stringify([businessMetaKey, menuMetaKey]);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const mark = this.cache.mark();

    const menuType = this.types.of('business_menu');
    const business = await this.repository.findPublicTopByMetaKey(
      this.types.of('business'),
      businessMetaKey,
    );
    if (!business) throw ApiError.notFound('No public business has this meta_key.');
    const menu = await this.repository.findPublicChildByMetaKey(
      menuType,
      business.uuid,
      menuMetaKey,
    );
    if (!menu) throw ApiError.notFound('This business has no public menu with this meta_key.');
    // One more than a list page holds tells whether the menu was cut.
    const items = await this.repository.listPublicChildrenBySortPosition(
      this.types.of('business_menu_item'),
      menu.uuid,
      MAX_PER_PAGE + 1,
    );

    const answer: StorefrontResponseDto = {
      business: toEntityResponse(business),
      menu: toEntityResponse(menu),
      items: items.slice(0, MAX_PER_PAGE).map(toEntityResponse),
      items_truncated: items.length > MAX_PER_PAGE,
    };
    this.cache.set(key, answer, [business.uuid, menu.uuid], mark);
    return answer;
  }
}
