import { createHash } from 'node:crypto';
import { EntityListFilter } from './entity-sql';

/**
 * Changes when the bytes of a list answer change for the same records (a new
 * field, another format), so that no ETag of an older answer still matches.
 */
const LIST_ANSWER_VERSION = 1;

/**
 * The ETag of a list answer: everything the answer depends on, hashed. The
 * request's filters, sort and page; the viewer and the businesses they work
 * for (what they may see, and which fields of a record are shown); the
 * total and the fingerprint of the matching records (see
 * EntityRepository.listFingerprint). Weak, as the storefront's.
 */
export function listEtag(
  filter: EntityListFilter,
  summary: { total: number; fingerprint: string },
): string {
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
    summary.total,
    summary.fingerprint,
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
