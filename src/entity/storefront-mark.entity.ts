import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Changes to what a menu's stored storefront shows that are not writes to
 * its records (today: the stock counts of its items). Each change adds 1 to
 * the version of one of a few rows of the menu (its `shard`, chosen at
 * random), in the change's transaction. A stored storefront keeps the sum
 * of its menu's versions as of the snapshot it was built from, and is fresh
 * only while that sum is still the current one: every committed change
 * raises it, and changes that commit side by side lock different rows, so
 * they never queue behind one row of the menu.
 */
@Entity('storefront_marks')
export class StorefrontMarkEntity {
  @PrimaryColumn({
    name: 'menu_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_storefront_marks',
  })
  menuUuid!: string;

  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_storefront_marks' })
  shard!: number;

  /** How many changes this row has counted (a row is made by its first). */
  @Column({ type: 'bigint', default: 1 })
  version!: string;
}
