import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { COLUMNS, numericSortKey, queryRecords } from './entity-sql';
import { EntityRecord } from './entity-record.entity';
import { EntityType } from './entity-types';

/**
 * The storefront's reads: public records by meta_key and a menu's public
 * items in storefront order, each on an index of its own.
 */
@Injectable()
export class StorefrontRepository {
  constructor(private readonly dataSource: DataSource) {}

  private rows(
    sql: string,
    params: unknown[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<EntityRecord[]> {
    return queryRecords(manager, sql, params);
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
   * entities_parent_type_sort_idx).
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
