import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { COLUMNS, EntityRow, toRecord } from './entity-sql';
import { EntityRecord } from './entity-record.entity';
import { EntityType } from './entity-types';

/**
 * The menu row's version: its tuple's transaction id and its update time to
 * the microsecond. Any write of the row gives it a new tuple, so a version
 * names one state of the row's `extra_data`.
 */
const ROW_VERSION = `(e.xmin::text || '/' || to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS'))`;

/** The menu's columns, its `extra_data` left out (null) when it is still the version the caller holds. */
const MENU_COLUMNS = COLUMNS.replace(
  'e.extra_data,',
  `CASE WHEN ${ROW_VERSION} = $6 THEN NULL ELSE e.extra_data END AS extra_data,`,
);
if (MENU_COLUMNS === COLUMNS) throw new Error('COLUMNS no longer lists e.extra_data');

/** One public item of category Delivery of the menu, if any: the statement's last part, when asked. */
const DELIVERY_AREA = `
       UNION ALL
       (SELECT 'delivery', ${COLUMNS}, NULL FROM entities e JOIN m ON e.parent_entity_uuid = m.uuid
         WHERE e.entity_type = $5 AND e.status = 'enabled' AND e.trashed_at IS NULL
           AND lower(btrim(e.extra_data->>'category')) = 'delivery'
         LIMIT 1)`;

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
   *
   * `heldVersion` is the menu's version whose `extra_data` the caller holds:
   * when the row is still at that version its `extra_data` is answered null
   * and never leaves the database (a menu with delivery zones carries up to
   * hundreds of KiB of points). The menu's `version` is always answered.
   *
   * Without `deliveryAreas` the statement does not look for delivery areas
   * (that part reads every item of the menu) and `hasDeliveryItems` is
   * undefined.
   */
  async findOrderable(
    menuType: EntityType,
    itemType: EntityType,
    menuUuid: string,
    itemUuids: string[],
    manager?: EntityManager,
    heldVersion: string | null = null,
    deliveryAreas = true,
  ): Promise<{
    menu: EntityRecord;
    /** The menu row's version (see ROW_VERSION). */
    version: string;
    /** False: the menu's extra_data is still `heldVersion`'s and was not read (it is null). */
    extraDataRead: boolean;
    business: EntityRecord;
    items: EntityRecord[];
    hasDeliveryItems: boolean | undefined;
  } | null> {
    const business = menuType.parent;
    if (!business) throw new Error(`${menuType.name} has no parent type`);
    const rows: Array<
      EntityRow & { role: 'menu' | 'business' | 'item' | 'delivery'; row_version: string | null }
    > = await (manager ?? this.dataSource.manager).query(
      `WITH m AS (
         SELECT e.uuid, e.parent_entity_uuid FROM entities e
          JOIN entities b ON b.uuid = e.parent_entity_uuid AND b.entity_type = $3
            AND b.status = 'enabled' AND b.trashed_at IS NULL AND b.parent_entity_uuid IS NULL
          WHERE e.uuid = $1 AND e.entity_type = $2 AND e.status = 'enabled' AND e.trashed_at IS NULL)
       SELECT 'menu' AS role, ${MENU_COLUMNS}, ${ROW_VERSION} AS row_version
         FROM entities e JOIN m ON e.uuid = m.uuid
       UNION ALL
       SELECT 'business', ${COLUMNS}, NULL FROM entities e JOIN m ON e.uuid = m.parent_entity_uuid
       UNION ALL
       SELECT 'item', ${COLUMNS}, NULL FROM entities e JOIN m ON e.parent_entity_uuid = m.uuid
        WHERE e.uuid = ANY($4::uuid[]) AND e.entity_type = $5
          AND e.status = 'enabled' AND e.trashed_at IS NULL${deliveryAreas ? DELIVERY_AREA : ''}`,
      [menuUuid, menuType.name, business.name, itemUuids, itemType.name, heldVersion],
    );
    const menu = rows.find((row) => row.role === 'menu');
    const owner = rows.find((row) => row.role === 'business');
    if (!menu || !owner) return null;
    return {
      menu: toRecord(menu),
      version: menu.row_version!,
      extraDataRead: menu.extra_data !== null,
      business: toRecord(owner),
      items: rows.filter((row) => row.role === 'item').map(toRecord),
      hasDeliveryItems: deliveryAreas ? rows.some((row) => row.role === 'delivery') : undefined,
    };
  }
}
