import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { COLUMNS, EntityRow, toRecord } from './entity-sql';
import { EntityRecord } from './entity-record.entity';
import { EntityType } from './entity-types';

/** The read an order is placed against: a public menu with the items asked for. */
@Injectable()
export class OrderableMenuRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * A public menu of a public business, and those of `itemUuids` that are
   * enabled, live items of it, and whether it has any public item of
   * category Delivery (a delivery area), in one statement (orders place against it on
   * their hottest path). Uses `manager` when given (the caller's transaction).
   * Null when the menu or its business is not public.
   */
  async findOrderable(
    menuType: EntityType,
    itemType: EntityType,
    menuUuid: string,
    itemUuids: string[],
    manager?: EntityManager,
  ): Promise<{
    menu: EntityRecord;
    business: EntityRecord;
    items: EntityRecord[];
    hasDeliveryItems: boolean;
  } | null> {
    const business = menuType.parent;
    if (!business) throw new Error(`${menuType.name} has no parent type`);
    const rows: Array<EntityRow & { role: 'menu' | 'business' | 'item' | 'delivery' }> = await (
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
          AND e.status = 'enabled' AND e.trashed_at IS NULL
       UNION ALL
       (SELECT 'delivery', ${COLUMNS} FROM entities e JOIN m ON e.parent_entity_uuid = m.uuid
         WHERE e.entity_type = $5 AND e.status = 'enabled' AND e.trashed_at IS NULL
           AND lower(btrim(e.extra_data->>'category')) = 'delivery'
         LIMIT 1)`,
      [menuUuid, menuType.name, business.name, itemUuids, itemType.name],
    );
    const menu = rows.find((row) => row.role === 'menu');
    const owner = rows.find((row) => row.role === 'business');
    if (!menu || !owner) return null;
    return {
      menu: toRecord(menu),
      business: toRecord(owner),
      items: rows.filter((row) => row.role === 'item').map(toRecord),
      hasDeliveryItems: rows.some((row) => row.role === 'delivery'),
    };
  }
}
