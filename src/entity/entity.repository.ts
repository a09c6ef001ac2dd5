import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ApiError } from '../http/api-error';
import { EntityResponseDto } from './dto/entity-response.dto';
import { EntityRecord } from './entity-record.entity';
import { ancestorsOf, EntityType } from './entity-types';

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

const COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
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
const ANSWER_COLUMNS = `e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
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
 * entities_parent_sort_idx for key 'sort_position'.
 */
export function numericSortKey(key: string): string {
  return (
    `CASE WHEN jsonb_typeof(e.extra_data -> ${key}) = 'number' THEN (e.extra_data ->> ${key})::numeric ` +
    `WHEN (e.extra_data ->> ${key}) ~ '${NUMERIC_TEXT}' THEN (e.extra_data ->> ${key})::numeric END`
  );
}

interface EntityRow {
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

function toRecord(row: EntityRow): EntityRecord {
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

/** The writable columns in the order insert and update name them ($4…$13). */
function writableParams(values: EntityValues): unknown[] {
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
class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * "Public": the record is enabled and not trashed, and so is every
 * ancestor (a menu's business; an item's menu and business). Ancestors are
 * LEFT JOINed so that the owner's own records stay visible beside it.
 */
function publicScope(type: EntityType, params: Params): { joins: string; condition: string } {
  const joins: string[] = [];
  const conditions = [`e.status = 'enabled'`, 'e.trashed_at IS NULL'];
  let child = 'e';
  ancestorsOf(type).forEach((ancestor, index) => {
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

/** Own records, records of businesses the viewer works for, or public ones. */
function visibleTo(
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

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (match) => `\\${match}`);
}

function orderBy(sort: EntitySort, params: Params): string {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
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

/** All SQL of the entities table. */
@Injectable()
export class EntityRepository {
  constructor(private readonly dataSource: DataSource) {}

  private async rows(
    sql: string,
    params: unknown[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntityRecord[]> {
    const result: unknown = await manager.query(sql, params);
    // TypeORM answers UPDATE … RETURNING with [rows, affected] and other statements with rows.
    const rows = /^\s*UPDATE/i.test(sql) ? (result as [EntityRow[], number])[0] : result;
    return (rows as EntityRow[]).map(toRecord);
  }

  /** A page of records, already in the answer's shape, and the total of the filter. */
  async list(filter: EntityListFilter): Promise<{ records: EntityResponseDto[]; total: number }> {
    const params = new Params();
    const scope = publicScope(filter.type, params);
    const where = [`e.entity_type = ${params.add(filter.type.name)}`, 'e.trashed_at IS NULL'];
    where.push(visibleTo(filter.type, filter.viewer, filter.memberOf, scope, params));
    if (filter.ownedBy !== undefined) where.push(`e.owned_by = ${params.add(filter.ownedBy)}`);
    if (filter.parentEntityType !== undefined) {
      where.push(`e.parent_entity_type = ${params.add(filter.parentEntityType)}`);
    }
    if (filter.parentEntityUuid !== undefined) {
      where.push(`e.parent_entity_uuid = ${params.add(filter.parentEntityUuid)}`);
    }
    if (filter.status !== undefined) where.push(`e.status = ${params.add(filter.status)}`);
    if (filter.metaKey !== undefined) {
      where.push(`lower(e.meta_key) = lower(${params.add(filter.metaKey)})`);
    }
    if (filter.slug !== undefined) where.push(`e.slug = ${params.add(filter.slug)}`);
    if (filter.q !== undefined) {
      const pattern = params.add(`%${escapeLike(filter.q)}%`);
      where.push(`(e.title_name ILIKE ${pattern} OR e.meta_key ILIKE ${pattern})`);
    }
    const from = `FROM entities e\n${scope.joins}\nWHERE ${where.join(' AND ')}`;
    const fromValues = [...params.values];
    const order = orderBy(filter.sort, params);
    const limit = params.add(filter.perPage);
    const offset = params.add((filter.page - 1) * filter.perPage);
    // The page and the total in one statement; the rows are the answer's records as they are.
    // The total is a subquery run once (not count(*) OVER (), which would read every matching
    // row whole before the LIMIT, where the page alone can walk an index and stop).
    const rows: Array<EntityResponseDto & { total?: number }> = await this.dataSource.query(
      `SELECT ${ANSWER_COLUMNS}, (SELECT count(*)::int ${from}) AS total ${from}
       ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    if (rows.length === 0) {
      // A page past the end has no row to carry the total (rare: ask for it alone).
      if (filter.page === 1) return { records: [], total: 0 };
      const counted: Array<{ total: number }> = await this.dataSource.query(
        `SELECT count(*)::int AS total ${from}`,
        fromValues,
      );
      return { records: [], total: counted[0].total };
    }
    const total = rows[0].total!;
    for (const row of rows) delete row.total;
    return { records: rows, total };
  }

  /**
   * One record as the viewer may see it: their own or of a business they work
   * for (even trashed), or a public one.
   */
  async findVisible(
    type: EntityType,
    uuid: string,
    viewer: string | undefined,
    memberOf?: readonly string[],
  ): Promise<EntityRecord | null> {
    const params = new Params();
    const scope = publicScope(type, params);
    const visible = visibleTo(type, viewer, memberOf, scope, params);
    const [record] = await this.rows(
      `SELECT ${COLUMNS} FROM entities e ${scope.joins}
       WHERE e.uuid = ${params.add(uuid)} AND e.entity_type = ${params.add(type.name)} AND ${visible}`,
      params.values,
    );
    return record ?? null;
  }

  /** Public records of a type by meta_key (case-insensitive), oldest first; at most `limit`. */
  async findPublicByMetaKey(
    type: EntityType,
    metaKey: string,
    parentEntityUuid: string | undefined,
    limit: number,
  ): Promise<EntityRecord[]> {
    const params = new Params();
    const scope = publicScope(type, params);
    const where = [
      `e.entity_type = ${params.add(type.name)}`,
      `lower(e.meta_key) = lower(${params.add(metaKey)})`,
      scope.condition,
    ];
    if (parentEntityUuid !== undefined) {
      where.push(`e.parent_entity_uuid = ${params.add(parentEntityUuid)}`);
    }
    return this.rows(
      `SELECT ${COLUMNS} FROM entities e ${scope.joins} WHERE ${where.join(' AND ')}
       ORDER BY e.created_at, e.uuid LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  /** A record of this type in any state (the owner's write paths). */
  async findOfType(
    type: EntityType,
    uuid: string,
    manager?: EntityManager,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `SELECT ${COLUMNS} FROM entities e WHERE e.uuid = $1 AND e.entity_type = $2`,
      [uuid, type.name],
      manager,
    );
    return record ?? null;
  }

  /** The record an earlier create with this request_id made (idempotent create). */
  async findByRequestId(
    type: EntityType,
    ownedBy: string,
    requestId: string,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `SELECT ${COLUMNS} FROM entities e
       WHERE e.owned_by = $1 AND e.entity_type = $2 AND e.request_id = $3`,
      [ownedBy, type.name, requestId],
    );
    return record ?? null;
  }

  async findParent(uuid: string): Promise<ParentRow | null> {
    const rows: Array<{
      uuid: string;
      entity_type: string;
      owned_by: string;
      trashed_at: Date | null;
    }> = await this.dataSource.query(
      'SELECT uuid, entity_type, owned_by, trashed_at FROM entities WHERE uuid = $1',
      [uuid],
    );
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      uuid: row.uuid,
      entityType: row.entity_type,
      ownedBy: row.owned_by,
      trashedAt: row.trashed_at,
    };
  }

  /** The business a record belongs to: itself, its menu's business, or its parent's. */
  async businessUuidOf(uuid: string): Promise<string | null> {
    const rows: Array<{ business_uuid: string }> = await this.dataSource.query(
      `SELECT COALESCE(g.uuid, p.uuid, e.uuid)::text AS business_uuid
         FROM entities e
         LEFT JOIN entities p ON p.uuid = e.parent_entity_uuid
         LEFT JOIN entities g ON g.uuid = p.parent_entity_uuid
        WHERE e.uuid = $1`,
      [uuid],
    );
    return rows[0]?.business_uuid ?? null;
  }

  /**
   * Inserts a record. With a request_id already used by this owner for this
   * type, inserts nothing and answers null: the unique index decides,
   * so two racing creates cannot both insert.
   */
  async insert(
    type: EntityType,
    ownedBy: string,
    updatedBy: string,
    values: EntityValues,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `INSERT INTO entities AS e (entity_type, owned_by, request_id, slug, meta_key, meta_value,
         title_name, description, entity_featured_url, status, parent_entity_type,
         parent_entity_uuid, extra_data, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14)
       ON CONFLICT (owned_by, entity_type, request_id) WHERE request_id IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [type.name, ownedBy, values.requestId, ...writableParams(values), updatedBy],
    );
    return record ?? null;
  }

  /** Replaces the writable fields of a live record of this owner; null when there is none. */
  async update(
    type: EntityType,
    uuid: string,
    ownedBy: string,
    updatedBy: string,
    values: EntityValues,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `UPDATE entities AS e SET slug = $4, meta_key = $5, meta_value = $6, title_name = $7,
         description = $8, entity_featured_url = $9, status = $10, parent_entity_type = $11,
         parent_entity_uuid = $12, extra_data = $13::jsonb, updated_by = $14, updated_at = now()
       WHERE e.uuid = $1 AND e.entity_type = $2 AND e.owned_by = $3 AND e.trashed_at IS NULL
       RETURNING ${COLUMNS}`,
      [uuid, type.name, ownedBy, ...writableParams(values), updatedBy],
    );
    return record ?? null;
  }

  /** Moves a live record of this owner to the trash; null when it is not live. */
  async trash(
    type: EntityType,
    uuid: string,
    ownedBy: string,
    updatedBy: string,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `UPDATE entities AS e SET trashed_at = now(), updated_by = $4, updated_at = now()
       WHERE e.uuid = $1 AND e.entity_type = $2 AND e.owned_by = $3 AND e.trashed_at IS NULL
       RETURNING ${COLUMNS}`,
      [uuid, type.name, ownedBy, updatedBy],
    );
    return record ?? null;
  }

  /** Takes a trashed record of this owner back; null when it is not in the trash. */
  async restore(
    type: EntityType,
    uuid: string,
    ownedBy: string,
    updatedBy: string,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `UPDATE entities AS e SET trashed_at = NULL, updated_by = $4, updated_at = now()
       WHERE e.uuid = $1 AND e.entity_type = $2 AND e.owned_by = $3 AND e.trashed_at IS NOT NULL
       RETURNING ${COLUMNS}`,
      [uuid, type.name, ownedBy, updatedBy],
    );
    return record ?? null;
  }

  /**
   * A public menu of a public business, and those of `itemUuids` that are
   * enabled, live items of it, in one statement (orders place against it on
   * their hottest path). Uses `manager` when given (the caller's transaction).
   * Null when the menu or its business is not public.
   */
  async findOrderable(
    menuType: EntityType,
    itemType: EntityType,
    menuUuid: string,
    itemUuids: string[],
    manager?: EntityManager,
  ): Promise<{ menu: EntityRecord; business: EntityRecord; items: EntityRecord[] } | null> {
    const business = menuType.parent;
    if (!business) throw new Error(`${menuType.name} has no parent type`);
    const rows: Array<EntityRow & { role: 'menu' | 'business' | 'item' }> = await (
      manager ?? this.dataSource.manager
    ).query(
      `WITH m AS (
         SELECT e.uuid, e.parent_entity_uuid FROM entities e
          JOIN entities b ON b.uuid = e.parent_entity_uuid AND b.entity_type = $3
            AND b.status = 'enabled' AND b.trashed_at IS NULL AND b.parent_entity_uuid IS NULL
          WHERE e.uuid = $1 AND e.entity_type = $2 AND e.status = 'enabled' AND e.trashed_at IS NULL)
       SELECT 'menu' AS role, ${COLUMNS} FROM entities e JOIN m ON e.uuid = m.uuid
       UNION ALL
       SELECT 'business', ${COLUMNS} FROM entities e JOIN m ON e.uuid = m.parent_entity_uuid
       UNION ALL
       SELECT 'item', ${COLUMNS} FROM entities e JOIN m ON e.parent_entity_uuid = m.uuid
        WHERE e.uuid = ANY($4::uuid[]) AND e.entity_type = $5
          AND e.status = 'enabled' AND e.trashed_at IS NULL`,
      [menuUuid, menuType.name, business.name, itemUuids, itemType.name],
    );
    const menu = rows.find((row) => row.role === 'menu');
    const owner = rows.find((row) => row.role === 'business');
    if (!menu || !owner) return null;
    return {
      menu: toRecord(menu),
      business: toRecord(owner),
      items: rows.filter((row) => row.role === 'item').map(toRecord),
    };
  }

  /** Storefront read 1: a public top-level record by meta_key (index entities_top_meta_key_key). */
  async findPublicTopByMetaKey(
    type: EntityType,
    metaKey: string,
    manager?: EntityManager,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `SELECT ${COLUMNS} FROM entities e
       WHERE e.entity_type = $1 AND lower(e.meta_key) = lower($2) AND e.meta_key IS NOT NULL
         AND e.parent_entity_uuid IS NULL AND e.trashed_at IS NULL AND e.status = 'enabled'`,
      [type.name, metaKey],
      manager,
    );
    return record ?? null;
  }

  /** Storefront read 2: a public child of a parent by meta_key (index entities_menu_meta_key_key). */
  async findPublicChildByMetaKey(
    type: EntityType,
    parentUuid: string,
    metaKey: string,
    manager?: EntityManager,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `SELECT ${COLUMNS} FROM entities e
       WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2 AND lower(e.meta_key) = lower($3)
         AND e.meta_key IS NOT NULL AND e.trashed_at IS NULL AND e.status = 'enabled'
       ORDER BY e.created_at, e.uuid LIMIT 1`,
      [parentUuid, type.name, metaKey],
      manager,
    );
    return record ?? null;
  }

  /**
   * Storefront read 3: the public children of a parent in storefront order, the
   * same order as a list sorted by extra_data.sort_position ascending (index
   * entities_parent_sort_idx).
   */
  async listPublicChildrenBySortPosition(
    type: EntityType,
    parentUuid: string,
    limit: number,
    manager?: EntityManager,
  ): Promise<EntityRecord[]> {
    const key = `'sort_position'`;
    return this.rows(
      `SELECT ${COLUMNS} FROM entities e
       WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2
         AND e.trashed_at IS NULL AND e.status = 'enabled'
       ORDER BY ${numericSortKey(key)} ASC NULLS LAST, (e.extra_data ->> ${key}) ASC NULLS LAST,
         e.created_at ASC, e.uuid ASC
       LIMIT $3`,
      [parentUuid, type.name, limit],
      manager,
    );
  }
}
