import { createHash } from 'node:crypto';
import { EntityListFilter } from './entity-sql';

/**
 * Changes when the bytes of a list answer change for the same records (a new
 * field, another format), so that no ETag of an older answer still matches.
 */
const LIST_ANSWER_VERSION = 2;

/**
 * What a list answer depends on besides its parameters and its caller. For
 * a list of one parent's children, that parent's version (see
 * EntityRepository.childrenVersion), which changes with every write that
 * can change such a list; for any other list, the total and the
 * fingerprint of the matching records (see EntityRepository.listFingerprint).
 */
export type ListBasis = { version: string } | { total: number; fingerprint: string };

/**
 * The ETag of a list answer: everything the answer depends on, hashed. The
 * request's filters, sort and page; the viewer and the businesses they work
 * for (what they may see, and which fields of a record are shown); and the
 * basis of the records. Weak, as the storefront's.
 */
export function listEtag(filter: EntityListFilter, basis: ListBasis): string {
  const key = JSON.stringify([
    LIST_ANSWER_VERSION,
    filter.type.name,
    filter.viewer ?? null,
    filter.memberOf ? [...filter.memberOf].sort() : null,
    filter.ownedBy ?? null,
    filter.parentEntityType ?? null,
    filter.parentEntityUuid ?? null,
    filter.status ?? null,
    filter.metaKey ?? null,
    filter.slug ?? null,
    filter.q ?? null,
    filter.sort,
    filter.page,
    filter.perPage,
    'version' in basis ? ['version', basis.version] : [basis.total, basis.fingerprint],
  ]);
  return `W/"${createHash('sha256').update(key).digest('base64url')}"`;
}

/** True when an If-None-Match header names this ETag (weak comparison, as Express does). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
