import { EntityManager, QueryFailedError } from 'typeorm';
import { fetchRawRows } from '../database/query-builder';
import { ApiError } from '../http/api-error';
import { EntityRecord } from './entity-record.entity';
import { ancestorsOf, EntityType } from './entity-types';

/*
 * The SQL pieces the repositories of the entities table share: columns,
 * row mapping, the "public" scope, ordering, parameters.
 */
/** Columns a list may be sorted by, mapped to SQL; nothing else reaches ORDER BY. */
export const SORT_COLUMNS = {
  uuid: 'e.uuid',
  created_at: 'e.created_at',
  updated_at: 'e.updated_at',
  title_name: 'e.title_name',
  meta_key: 'e.meta_key',
  status: 'e.status',
} as const;

export type SortColumn = keyof typeof SORT_COLUMNS;
export type SortDirection = 'asc' | 'desc';

export type EntitySort =
  | { column: SortColumn; direction: SortDirection }
  /** `key` has passed ^[A-Za-z0-9_]{1,64}$ and is still only ever sent as a parameter. */
  | { extraDataKey: string; direction: SortDirection };

export interface EntityListFilter {
  type: EntityType;
  /** The caller, when a valid Bearer token was sent: their own live records are visible too, not only public ones. */
  viewer: string | undefined;
  /** Businesses the viewer works for: their live records are visible too. */
  memberOf?: readonly string[];
  ownedBy?: string;
  parentEntityType?: string;
  parentEntityUuid?: string;
  status?: string;
  metaKey?: string;
  slug?: string;
  q?: string;
  sort: EntitySort;
  page: number;
  perPage: number;
}

/** The column values a create or update writes. */
export interface EntityValues {
  requestId: string | null;
  slug: string | null;
  metaKey: string | null;
  metaValue: string | null;
  titleName: string | null;
  description: string | null;
  entityFeaturedUrl: string | null;
  status: string;
  parentEntityType: string | null;
  parentEntityUuid: string | null;
  extraData: Record<string, unknown>;
}

export interface ParentRow {
  uuid: string;
  entityType: string;
  ownedBy: string;
  trashedAt: Date | null;
}

/** The unique meta_key indexes, and the field a clash is reported on. */
const META_KEY_INDEXES = new Set(['entities_top_meta_key_key', 'entities_menu_meta_key_key']);

export const COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by, e.updated_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data, e.trashed_at,
  e.created_at, e.updated_at`;

/** A timestamp as ISO 8601 text in UTC with milliseconds, as Date.toISOString writes it. */
function isoText(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * The record of an answer, made by the database: the columns in the
 * answer's order and names, timestamps as ISO text, so that each row is
 * the record to send (nothing parsed into a Date and written back as text).
 */
export const ANSWER_COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by, e.updated_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data,
  ${isoText('e.trashed_at')} AS trashed_at, ${isoText('e.created_at')} AS created_at,
  ${isoText('e.updated_at')} AS updated_at`;

/** Text that casts to numeric; bounded so that the cast can never overflow. */
const NUMERIC_TEXT = '^-?[0-9]{1,100}([.][0-9]{1,100})?$';

/**
 * The numeric sort key of an extra_data value: JSON numbers, and strings that
 * hold a number, as numeric (so 2 sorts before 10); NULL for anything else.
 * The cast only runs on values that are numeric. `key` is a SQL literal or a
 * parameter placeholder, never user text. Written exactly so in the index
 * entities_parent_type_sort_idx for key 'sort_position'.
 */
export function numericSortKey(key: string): string {
  return (
    `CASE WHEN jsonb_typeof(e.extra_data -> ${key}) = 'number' THEN (e.extra_data ->> ${key})::numeric ` +
    `WHEN (e.extra_data ->> ${key}) ~ '${NUMERIC_TEXT}' THEN (e.extra_data ->> ${key})::numeric END`
  );
}

export interface EntityRow {
  uuid: string;
  entity_type: string;
  request_id: string | null;
  slug: string | null;
  meta_key: string | null;
  meta_value: string | null;
  title_name: string | null;
  description: string | null;
  entity_featured_url: string | null;
  status: string;
  owned_by: string;
  updated_by: string | null;
  parent_entity_type: string | null;
  parent_entity_uuid: string | null;
  extra_data: Record<string, unknown>;
  trashed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export function toRecord(row: EntityRow): EntityRecord {
  return Object.assign(new EntityRecord(), {
    uuid: row.uuid,
    entityType: row.entity_type,
    requestId: row.request_id,
    slug: row.slug,
    metaKey: row.meta_key,
    metaValue: row.meta_value,
    titleName: row.title_name,
    description: row.description,
    entityFeaturedUrl: row.entity_featured_url,
    status: row.status,
    ownedBy: row.owned_by,
    updatedBy: row.updated_by,
    parentEntityType: row.parent_entity_type,
    parentEntityUuid: row.parent_entity_uuid,
    extraData: row.extra_data,
    trashedAt: row.trashed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/** The values of the writable columns, in the order insert and update name them (extra_data as JSON text, last). */
export function writableParams(values: EntityValues): unknown[] {
  return [
    values.slug,
    values.metaKey,
    values.metaValue,
    values.titleName,
    values.description,
    values.entityFeaturedUrl,
    values.status,
    values.parentEntityType,
    values.parentEntityUuid,
    JSON.stringify(values.extraData),
  ];
}

/** Positional parameters, so that no value is ever written into SQL text. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The columns of an ancestor the public scope checks, read by primary key alone. */
function ancestorByUuid(uuid: string): string {
  // OFFSET 0 keeps the scope's conditions out of the lookup, so that the only
  // index it can use is the primary key: on a table without statistics, a
  // partial index (WHERE trashed_at IS NULL) looks as cheap as one row and
  // would otherwise be walked whole.
  return `SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = ${uuid} OFFSET 0`;
}

/**
 * "Public" for the children of one known parent (`parentUuid`, a
 * placeholder): the parent and every ancestor above it are checked once per
 * statement (an uncorrelated EXISTS, which PostgreSQL runs as a one-time
 * filter), not joined per row; the rows are then a walk of the parent's
 * sort index.
 */
function fixedParentScope(
  ancestors: EntityType[],
  parentUuid: string,
  params: Params,
): { joins: string; condition: string } {
  const from: string[] = [];
  const checks: string[] = [];
  ancestors.forEach((ancestor, index) => {
    const alias = `a${index + 1}`;
    from.push(
      index === 0
        ? `(${ancestorByUuid(parentUuid)}) ${alias}`
        : `JOIN LATERAL (${ancestorByUuid(`a${index}.parent_entity_uuid`)}) ${alias} ON true`,
    );
    checks.push(
      `${alias}.entity_type = ${params.add(ancestor.name)} AND ${alias}.status = 'enabled'` +
        ` AND ${alias}.trashed_at IS NULL`,
    );
  });
  const parents = `EXISTS (SELECT 1 FROM ${from.join(' ')} WHERE ${checks.join(' AND ')})`;
  return {
    joins: '',
    condition: `(e.status = 'enabled' AND e.trashed_at IS NULL AND ${parents})`,
  };
}

/**
 * "Public": the record is enabled and not trashed, and so is every
 * ancestor (a menu's business; an item's menu and business). Ancestors are
 * LEFT JOINed so that the owner's own records stay visible beside it. With
 * `parentUuid` (a placeholder the caller also compares e.parent_entity_uuid
 * with), the ancestors are those of that one parent and checked once.
 */
export function publicScope(
  type: EntityType,
  params: Params,
  parentUuid?: string,
): { joins: string; condition: string } {
  const ancestors = ancestorsOf(type);
  if (parentUuid !== undefined && ancestors.length > 0) {
    return fixedParentScope(ancestors, parentUuid, params);
  }
  const joins: string[] = [];
  const conditions = [`e.status = 'enabled'`, 'e.trashed_at IS NULL'];
  let child = 'e';
  ancestors.forEach((ancestor, index) => {
    const alias = `a${index + 1}`;
    joins.push(
      `LEFT JOIN entities ${alias} ON ${alias}.uuid = ${child}.parent_entity_uuid` +
        ` AND ${alias}.entity_type = ${params.add(ancestor.name)}` +
        ` AND ${alias}.status = 'enabled' AND ${alias}.trashed_at IS NULL`,
    );
    conditions.push(`${alias}.uuid IS NOT NULL`);
    child = alias;
  });
  return { joins: joins.join('\n'), condition: `(${conditions.join(' AND ')})` };
}

/**
 * The records of these businesses (the businesses themselves, their menus,
 * or their menus' items, by the type's depth), for the people who work for them.
 */
function memberScope(type: EntityType, businesses: readonly string[], params: Params): string {
  const ids = `${params.add(businesses)}::uuid[]`;
  switch (ancestorsOf(type).length) {
    case 0:
      return `e.uuid = ANY(${ids})`;
    case 1:
      return `e.parent_entity_uuid = ANY(${ids})`;
    default:
      return `e.parent_entity_uuid IN (SELECT p.uuid FROM entities p WHERE p.parent_entity_uuid = ANY(${ids}))`;
  }
}

/**
 * Whether a listed row belongs to one of the businesses the viewer works
 * for, as a boolean column named `member_row`: which of a record's fields
 * they may read depends on it.
 */
export function memberRowColumn(
  type: EntityType,
  businesses: readonly string[],
  params: Params,
): string {
  return `(${memberScope(type, businesses, params)}) AS member_row`;
}

/** Own records, records of businesses the viewer works for, or public ones. */
export function visibleTo(
  type: EntityType,
  viewer: string | undefined,
  memberOf: readonly string[] | undefined,
  scope: { condition: string },
  params: Params,
): string {
  if (!viewer) return scope.condition;
  const own = `e.owned_by = ${params.add(viewer)}`;
  const member = memberOf?.length ? ` OR ${memberScope(type, memberOf, params)}` : '';
  return `(${own}${member} OR ${scope.condition})`;
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (match) => `\\${match}`);
}

export function orderBy(sort: EntitySort, params: Params): string {
  const direction = sort.direction === 'desc' ? 'DESC' : 'ASC';
  const terms: string[] = [];
  if ('extraDataKey' in sort) {
    const key = `${params.add(sort.extraDataKey)}::text`;
    terms.push(`${numericSortKey(key)} ${direction} NULLS LAST`);
    terms.push(`(e.extra_data ->> ${key}) ${direction} NULLS LAST`);
  } else if (sort.column !== 'created_at' && sort.column !== 'uuid') {
    terms.push(`${SORT_COLUMNS[sort.column]} ${direction} NULLS LAST`);
  } else if (sort.column === 'uuid') {
    terms.push(`e.uuid ${direction}`);
  }
  // Ties break on created_at, then uuid, so pages never overlap or skip.
  terms.push(`e.created_at ${direction}`, `e.uuid ${direction}`);
  return [...new Set(terms)].join(', ');
}

/**
 * A clash on a meta_key unique index becomes 409 on meta_key; anything else is rethrown.
 * Both racing writers hit the index, so exactly one wins.
 */
export function metaKeyConflict(error: unknown): unknown {
  if (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string }).code === '23505' &&
    META_KEY_INDEXES.has((error.driverError as { constraint?: string }).constraint ?? '')
  ) {
    return ApiError.conflict('This meta_key is already taken.', [
      { field: 'meta_key', message: 'meta_key is already used by another live record here.' },
    ]);
  }
  return error;
}

/** Runs `sql` (composed by the entity repositories) and maps its rows to records. */
export async function queryRecords(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<EntityRecord[]> {
  return (await fetchRawRows<EntityRow>(manager, sql, params)).map(toRecord);
}
