import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError } from '../http/api-error';
import { pageMeta, successBody } from '../http/envelope';
import { EntityResponseDto, forReader } from './dto/entity-response.dto';
import {
  DEFAULT_PER_PAGE,
  ListEntitiesQueryDto,
  MAX_PER_PAGE,
} from './dto/list-entities-query.dto';
import { FieldUse, Reader, unreadableUse } from './domain/readable-fields';
import { EntityAccess } from './entity-access';
import { EntityListFilter, EntitySort, SortColumn } from './entity-sql';
import { EntityRepository, ListedRecord } from './entity.repository';
import { EntityTypeRegistry } from './entity-types';
import { listEtag, matchesEtag } from './list-etag';
import { ListPageCache } from './list-page-cache';

/** A list answer (the JSON bytes to send) and its ETag, or only the ETag when the client holds that answer. */
export type ListReply =
  { notModified: true; etag: string } | { notModified?: false; etag: string; body: Buffer };

/** The record fields each filter of a list reads. */
const FILTER_FIELDS: ReadonlyArray<[keyof ListEntitiesQueryDto, readonly string[]]> = [
  ['owned_by', ['owned_by']],
  ['parent_entity_type', ['parent_entity_type']],
  ['parent_entity_uuid', ['parent_entity_uuid']],
  ['status', ['status']],
  ['meta_key', ['meta_key']],
  ['slug', ['slug']],
  ['q', ['title_name', 'meta_key']],
];

/** What a list query reads of its records: the sort field, then each filter sent. */
function fieldUses(query: ListEntitiesQueryDto): FieldUse[] {
  const uses: FieldUse[] = [{ param: 'sort_by', fields: [query.sort_by ?? 'created_at'] }];
  for (const [param, fields] of FILTER_FIELDS) {
    if (query[param] !== undefined) uses.push({ param, fields });
  }
  return uses;
}

/** A listed record as its viewer may see it: the owner's own, their team's, or public. */
function listedView(record: ListedRecord, viewer: string | undefined): EntityResponseDto {
  const { member_row: member, ...answer } = record;
  const reader: Reader = record.owned_by === viewer ? 'owner' : member ? 'member' : 'public';
  return forReader(answer, reader);
}

function parseSort(sortBy = 'created_at', sortOrder: 'asc' | 'desc' = 'asc'): EntitySort {
  // sort_by passed the SORT_BY pattern in the query DTO.
  if (sortBy.startsWith('extra_data.')) {
    return { extraDataKey: sortBy.slice('extra_data.'.length), direction: sortOrder };
  }
  return { column: sortBy as SortColumn, direction: sortOrder };
}

/**
 * Lists of businesses, menus and items: visibility (owner, member or
 * public), filters, sorting and paging, the list's ETag and the page cache.
 */
@Injectable()
export class EntityListService {
  constructor(
    private readonly types: EntityTypeRegistry,
    private readonly repository: EntityRepository,
    private readonly access: EntityAccess,
    private readonly pages: ListPageCache,
  ) {}

  /**
   * A page of records with its ETag; with `ifNoneMatch` naming the current
   * ETag, only the ETag (304), and the page is neither read nor built.
   * A list of one parent's children (`parent_entity_uuid`) checks its ETag
   * with one read of the parent's version, and answers from the page cache
   * while that version is the one the page was built at; any other list
   * reads the fingerprint of its matching records.
   */
  async listEntities(
    user: AuthUser | undefined,
    typeName: string,
    query: ListEntitiesQueryDto,
    ifNoneMatch?: string,
  ): Promise<ListReply> {
    const type = this.types.require(typeName);
    await this.assertReadable(user, query);
    const page = query.page ?? 1;
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    // owned_by lists stay that owner's own; without it, a member also sees the
    // records of the businesses they work for.
    const memberOf =
      user && query.owned_by === undefined ? await this.access.memberBusinesses(user) : undefined;
    const filter: EntityListFilter = {
      type,
      viewer: user?.uuid,
      memberOf,
      ownedBy: query.owned_by,
      parentEntityType: query.parent_entity_type,
      parentEntityUuid: query.parent_entity_uuid,
      status: query.status,
      metaKey: query.meta_key,
      slug: query.slug,
      q: query.q,
      sort: parseSort(query.sort_by, query.sort_order),
      page,
      perPage,
    };
    const parent = filter.parentEntityUuid;
    if (parent !== undefined && (ifNoneMatch || this.pages.enabled)) {
      const etag = listEtag(filter, { version: await this.repository.childrenVersion(parent) });
      if (matchesEtag(ifNoneMatch, etag)) return { notModified: true, etag };
      const body = this.pages.get(etag);
      if (body) return { etag, body };
    } else if (ifNoneMatch) {
      const etag = listEtag(filter, await this.repository.listFingerprint(filter));
      if (matchesEtag(ifNoneMatch, etag)) return { notModified: true, etag };
    }
    const byVersion = parent !== undefined;
    const { records, total, summary } = await this.repository.list(filter, byVersion);
    const visible = records.map((record) => listedView(record, user?.uuid));
    const message = `${type.label} records`;
    const body = Buffer.from(
      JSON.stringify(successBody(visible, message, pageMeta(page, perPage, total))),
    );
    // The version read with the page: the page is exactly that version's.
    const etag = listEtag(
      filter,
      byVersion ? { version: summary } : { total, fingerprint: summary },
    );
    if (byVersion) this.pages.set(etag, body);
    return { etag, body };
  }

  /**
   * Refuses (400, naming the parameter) a sort or filter on a field the
   * caller may not read in every record the list may hold: where a record
   * of one's own lands beside another tells the other's value. Only asked
   * of the policy when the query touches such a field at all.
   */
  private async assertReadable(
    user: AuthUser | undefined,
    query: ListEntitiesQueryDto,
  ): Promise<void> {
    const uses = fieldUses(query);
    if (!unreadableUse('public', uses)) return;
    const reader = await this.access.listReader(user, query.owned_by, query.parent_entity_uuid);
    const refused = unreadableUse(reader, uses);
    if (!refused) return;
    const message = `${refused.param} names a field this list does not show you, so it may not sort or filter by it.`;
    throw ApiError.validation([{ field: refused.param, message }], message);
  }
}
