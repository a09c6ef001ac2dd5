import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { EntityResponseDto } from './dto/entity-response.dto';
import {
  ANSWER_COLUMNS,
  COLUMNS,
  EntityListFilter,
  EntityValues,
  Params,
  ParentRow,
  escapeLike,
  memberRowColumn,
  orderBy,
  publicScope,
  queryRecords,
  visibleTo,
  writableParams,
} from './entity-sql';
import { EntityRecord } from './entity-record.entity';
import { EntityType } from './entity-types';
import { CoalescedReads } from '../database/coalesced-reads';
import { compileRaw, sql } from '../database/query-builder';
import { isUuid } from '../common/uuid';

/**
 * XOR of a 64-bit hash of each record's uuid seeded with its updated_at, as
 * text: integer work only (no text or numeric per row), and the pairing of
 * uuid and updated_at is kept, so two records written at the same instant
 * do not cancel out.
 */
const FINGERPRINT = `coalesce(bit_xor(uuid_hash_extended(e.uuid,
  timestamp_hash_extended(e.updated_at AT TIME ZONE 'UTC', 0))), 0)::text`;

/** The version of the children of the parent `uuid` (a placeholder), as text; 0 without a row. */
function childrenVersion(uuid: string): string {
  return `coalesce((SELECT v.version FROM entity_children_versions v
    WHERE v.parent_uuid = ${uuid}::uuid), 0)::text`;
}

/** The columns a create or update writes, in the order writableParams answers their values. */
const WRITABLE_COLUMNS = sql.raw(`slug, meta_key, meta_value, title_name, description,
  entity_featured_url, status, parent_entity_type, parent_entity_uuid, extra_data`);

/** The values of WRITABLE_COLUMNS as parameters; extra_data (the last) as jsonb. */
function writableValues(values: EntityValues) {
  const params = writableParams(values);
  const extraData = params.pop();
  return sql.join([...params, sql`${extraData}::jsonb`]);
}

/**
 * A listed record in the answer's shape; `member_row` is true for a record
 * of a business the viewer works for (present only when they work for one).
 */
export type ListedRecord = EntityResponseDto & { member_row?: boolean };

/** Writes, lists and single reads of the entities table, as the owner and the API see them. */
@Injectable()
export class EntityRepository {
  /** Conditional list reads that arrive together share one statement (see CoalescedReads). */
  private readonly childrenVersions = new CoalescedReads((parents) =>
    this.readChildrenVersions(parents),
  );

  constructor(private readonly dataSource: DataSource) {}

  private rows(
    text: string,
    params: readonly unknown[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntityRecord[]> {
    return queryRecords(manager, text, [...params]);
  }

  /** The WHERE of a list, shared by its page, its total and its fingerprint. */
  private listScope(filter: EntityListFilter): { from: string; params: Params } {
    const params = new Params();
    const parent =
      filter.parentEntityUuid === undefined ? undefined : params.add(filter.parentEntityUuid);
    const scope = publicScope(filter.type, params, parent);
    const where = [`e.entity_type = ${params.add(filter.type.name)}`, 'e.trashed_at IS NULL'];
    where.push(visibleTo(filter.type, filter.viewer, filter.memberOf, scope, params));
    if (filter.ownedBy !== undefined) where.push(`e.owned_by = ${params.add(filter.ownedBy)}`);
    if (filter.parentEntityType !== undefined) {
      where.push(`e.parent_entity_type = ${params.add(filter.parentEntityType)}`);
    }
    if (parent !== undefined) where.push(`e.parent_entity_uuid = ${parent}`);
    if (filter.status !== undefined) where.push(`e.status = ${params.add(filter.status)}`);
    if (filter.metaKey !== undefined) {
      // R14: unique storefront names.
      where.push(`lower(e.meta_key) = lower(${params.add(filter.metaKey)})`);
    }
    if (filter.slug !== undefined) where.push(`e.slug = ${params.add(filter.slug)}`);
    if (filter.q !== undefined) {
      const pattern = params.add(`%${escapeLike(filter.q)}%`);
      where.push(`(e.title_name ILIKE ${pattern} OR e.meta_key ILIKE ${pattern})`);
    }
    return { from: `FROM entities e\n${scope.joins}\nWHERE ${where.join(' AND ')}`, params };
  }

  /**
   * A page of records, already in the answer's shape, the total of the
   * filter, and what else the answer's ETag is made of: with `byVersion`
   * (a list of one parent's children), the parent's version read in the
   * same statement, so that the page is exactly the one of that version;
   * otherwise the fingerprint of every record it matches (see
   * listFingerprint).
   */
  async list(
    filter: EntityListFilter,
    byVersion = false,
  ): Promise<{ records: ListedRecord[]; total: number; summary: string }> {
    const { from, params } = this.listScope(filter);
    const summary = byVersion ? childrenVersion(params.add(filter.parentEntityUuid)) : FINGERPRINT;
    const fromValues = [...params.values];
    // Rows of the businesses the viewer works for are told apart: their team reads more of them.
    const member = filter.memberOf?.length
      ? `, ${memberRowColumn(filter.type, filter.memberOf, params)}`
      : '';
    const order = orderBy(filter.sort, params);
    const limit = params.add(filter.perPage);
    const offset = params.add((filter.page - 1) * filter.perPage);
    // The page, the total and the summary in one statement; the rows are the answer's
    // records as they are. The total is a subquery run once (not count(*) OVER (), which would
    // read every matching row whole before the LIMIT, where the page alone can walk an index
    // and stop).
    const rows: Array<ListedRecord & { summary?: [string, string] }> = await this.dataSource.query(
      `SELECT ${ANSWER_COLUMNS}${member}, (SELECT ARRAY[count(*)::text, ${summary}] ${from}) AS summary
         ${from} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
      params.values,
    );
    if (rows.length === 0) {
      // A page past the end has no row to carry the total (rare: ask for it alone).
      const [row]: Array<{ total: number; summary: string }> = await this.dataSource.query(
        `SELECT count(*)::int AS total, ${summary} AS summary ${from}`,
        fromValues,
      );
      return { records: [], ...row };
    }
    const [total, summaryText] = rows[0].summary!;
    for (const row of rows) delete row.summary;
    return { records: rows, total: Number(total), summary: summaryText };
  }

  /**
   * The version of the list of `parentUuid`'s children (see the migration
   * EntityChildrenVersions): any write that can change what such a list
   * shows sets a new one in the writer's transaction. One primary-key read.
   */
  async childrenVersion(parentUuid: string): Promise<string> {
    if (!isUuid(parentUuid)) return '0';
    return (await this.childrenVersions.read(parentUuid.toLowerCase())) ?? '0';
  }

  private async readChildrenVersions(parents: string[]): Promise<Map<string, string>> {
    const rows: Array<{ parent_uuid: string; version: string }> = await this.dataSource.query(
      `SELECT parent_uuid::text AS parent_uuid, version::text AS version
         FROM entity_children_versions WHERE parent_uuid = ANY($1::uuid[])`,
      [parents],
    );
    return new Map(rows.map((row) => [row.parent_uuid, row.version]));
  }

  /**
   * What a list's answer depends on besides its parameters, without reading
   * the page: how many records match, and a hash of every matching
   * record's uuid and updated_at. Every write to a record sets its
   * updated_at, and a record that starts or stops matching (created,
   * trashed, restored, deleted, hidden with its menu or business) changes the
   * set, so any change to the page changes one of the two.
   */
  listFingerprint(filter: EntityListFilter): Promise<{ total: number; fingerprint: string }> {
    const { from, params } = this.listScope(filter);
    return this.fingerprintOf(from, params.values);
  }

  private async fingerprintOf(
    from: string,
    values: unknown[],
  ): Promise<{ total: number; fingerprint: string }> {
    const [row]: Array<{ total: number; fingerprint: string }> = await this.dataSource.query(
      `SELECT count(*)::int AS total, ${FINGERPRINT} AS fingerprint ${from}`,
      values,
    );
    return row;
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
  /** Which of `uuids` are menus (of `menuType`) of the business, trashed or not. */
  async menusOf(menuType: EntityType, businessUuid: string, uuids: string[]): Promise<string[]> {
    const rows: Array<{ uuid: string }> = await this.dataSource.query(
      `SELECT e.uuid::text AS uuid FROM entities e
        WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2 AND e.uuid = ANY($3::uuid[])`,
      [businessUuid, menuType.name, uuids],
    );
    return rows.map((row) => row.uuid);
  }

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
   * so two racing creates cannot both insert. (A racing loser can meet the
   * winner on another unique index first, its meta_key's: null then too.)
   */
  async insert(
    type: EntityType,
    ownedBy: string,
    updatedBy: string,
    values: EntityValues,
  ): Promise<EntityRecord | null> {
    const insert = compileRaw(sql`INSERT INTO entities AS e (entity_type, owned_by, request_id,
         ${WRITABLE_COLUMNS}, updated_by)
       VALUES (${type.name}, ${ownedBy}, ${values.requestId}, ${writableValues(values)}, ${updatedBy})
       ON CONFLICT (owned_by, entity_type, request_id) WHERE request_id IS NOT NULL DO NOTHING
       RETURNING ${sql.raw(COLUMNS)}`);
    try {
      const [record] = await this.rows(insert.sql, insert.parameters);
      return record ?? null;
    } catch (error) {
      const unique = (error as { driverError?: { code?: string } }).driverError?.code === '23505';
      if (!unique || values.requestId === null) throw error;
      if (await this.findByRequestId(type, ownedBy, values.requestId)) return null;
      throw error;
    }
  }

  /** Replaces the writable fields of a live record of this owner; null when there is none. */
  async update(
    type: EntityType,
    uuid: string,
    ownedBy: string,
    updatedBy: string,
    values: EntityValues,
  ): Promise<EntityRecord | null> {
    const update = compileRaw(sql`UPDATE entities AS e
       SET (${WRITABLE_COLUMNS}, updated_by, updated_at) = (${writableValues(values)}, ${updatedBy}, now())
       WHERE e.uuid = ${uuid} AND e.entity_type = ${type.name} AND e.owned_by = ${ownedBy}
         AND e.trashed_at IS NULL
       RETURNING ${sql.raw(COLUMNS)}`);
    const [record] = await this.rows(update.sql, update.parameters);
    return record ?? null;
  }

  /** Sets these keys of a live record's extra_data, keeping the others; null when it is not live. */
  async mergeExtraData(
    manager: EntityManager,
    type: EntityType,
    uuid: string,
    settings: Record<string, unknown>,
    updatedBy: string,
  ): Promise<EntityRecord | null> {
    const [record] = await this.rows(
      `UPDATE entities AS e SET extra_data = e.extra_data || $3::jsonb, updated_by = $4,
         updated_at = now()
       WHERE e.uuid = $1 AND e.entity_type = $2 AND e.trashed_at IS NULL
       RETURNING ${COLUMNS}`,
      [uuid, type.name, JSON.stringify(settings), updatedBy],
      manager,
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
}
