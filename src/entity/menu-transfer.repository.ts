import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  execute,
  fetchAll,
  fetchOne,
  jsonb,
  queryBuilder,
  sql,
  Table,
} from '../database/query-builder';
import { EntityRecord } from './entity-record.entity';
import { EntityValues } from './entity-sql';
import { EntityType } from './entity-types';

type EntitiesTable = Table<
  EntityRecord,
  | 'uuid'
  | 'requestId'
  | 'slug'
  | 'metaKey'
  | 'metaValue'
  | 'titleName'
  | 'description'
  | 'entityFeaturedUrl'
  | 'status'
  | 'updatedBy'
  | 'parentEntityType'
  | 'parentEntityUuid'
  | 'extraData'
  | 'trashedAt'
  | 'createdAt'
  | 'updatedAt'
>;

const db = queryBuilder<{ entities: EntitiesTable }>();

/** Rows per INSERT of an import: 14 parameters each, well under PostgreSQL's 65,535. */
const INSERT_BATCH = 500;

/** A record to write, with the owner and writer of the import. */
export interface ImportWrite {
  values: EntityValues;
  ownedBy: string;
  updatedBy: string;
}

/** The reads and writes of a menu's export and import: its live items, in one transaction. */
@Injectable()
export class MenuTransferRepository {
  /** Locks the menu's row for the transaction, so two imports of one menu run one after the other. */
  async lockMenu(manager: EntityManager, menuType: EntityType, menuUuid: string): Promise<boolean> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('entities')
        .select('uuid')
        .where('uuid', '=', menuUuid)
        .where('entityType', '=', menuType.name)
        .where('trashedAt', 'is', null)
        .forUpdate(),
    );
    return row !== undefined;
  }

  /** The menu's live items (any status), by sort_position, then creation. */
  liveItems(
    manager: EntityManager,
    itemType: EntityType,
    menuUuid: string,
  ): Promise<EntityRecord[]> {
    return fetchAll(
      manager,
      db
        .selectFrom('entities')
        .selectAll()
        .where('parentEntityUuid', '=', menuUuid)
        .where('entityType', '=', itemType.name)
        .where('trashedAt', 'is', null)
        .orderBy(
          sql`CASE WHEN jsonb_typeof(extra_data -> 'sort_position') = 'number'
                THEN (extra_data ->> 'sort_position')::numeric END`,
          (order) => order.asc().nullsLast(),
        )
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
  }

  async insertItems(manager: EntityManager, itemType: EntityType, writes: ImportWrite[]) {
    for (let start = 0; start < writes.length; start += INSERT_BATCH) {
      const batch = writes.slice(start, start + INSERT_BATCH);
      await execute(
        manager,
        db.insertInto('entities').values(
          batch.map(({ values, ownedBy, updatedBy }) => ({
            ...columnsOf(values),
            entityType: itemType.name,
            ownedBy,
            updatedBy,
          })),
        ),
      );
    }
  }

  async updateItem(manager: EntityManager, uuid: string, write: ImportWrite): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('entities')
        .set({ ...columnsOf(write.values), updatedBy: write.updatedBy, updatedAt: sql`now()` })
        .where('uuid', '=', uuid)
        .where('trashedAt', 'is', null),
    );
  }

  /** Moves items to the trash (restorable like any trashed record). */
  async trashItems(manager: EntityManager, uuids: string[], updatedBy: string): Promise<void> {
    if (uuids.length === 0) return;
    await execute(
      manager,
      db
        .updateTable('entities')
        .set({ trashedAt: sql`now()`, updatedBy, updatedAt: sql`now()` })
        .where('uuid', 'in', uuids)
        .where('trashedAt', 'is', null),
    );
  }
}

function columnsOf(values: EntityValues) {
  return {
    requestId: values.requestId,
    slug: values.slug,
    metaKey: values.metaKey,
    metaValue: values.metaValue,
    titleName: values.titleName,
    description: values.description,
    entityFeaturedUrl: values.entityFeaturedUrl,
    status: values.status,
    parentEntityType: values.parentEntityType,
    parentEntityUuid: values.parentEntityUuid,
    extraData: jsonb(values.extraData),
  };
}
