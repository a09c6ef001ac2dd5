import { MigrationInterface, QueryRunner } from 'typeorm';

export class EntityReadIndexes1795294826095 implements MigrationInterface {
  name = 'EntityReadIndexes1795294826095';

  async up(queryRunner: QueryRunner): Promise<void> {
    // meta_keys must be unique among a business's menus, not among a menu's
    // items (two items may share a name), so the child index now covers menus only:
    // entity_type `{ns}_business_menu` for any namespace (API_NAMESPACE has no "_").
    await queryRunner.query(`DROP INDEX "entities_child_meta_key_key"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entities_menu_meta_key_key" ON "entities" ("parent_entity_uuid", "entity_type", lower("meta_key")) WHERE "trashed_at" IS NULL AND "parent_entity_uuid" IS NOT NULL AND "meta_key" IS NOT NULL AND "entity_type" ~ '^[a-z][a-z0-9]*_business_menu$'`,
    );
    // Retrieve-by-meta-key and the list's meta_key filter, for every type.
    await queryRunner.query(
      `CREATE INDEX "entities_type_meta_key_idx" ON "entities" ("entity_type", lower("meta_key")) WHERE "trashed_at" IS NULL`,
    );
    // The storefront and the item list: a menu's items by sort_position as a number, then
    // created_at, uuid. The expression must stay identical to numericSortKey()
    // in src/entity/entity.repository.ts for the planner to use it.
    await queryRunner.query(
      `CREATE INDEX "entities_parent_sort_idx" ON "entities" ("parent_entity_uuid", (CASE WHEN jsonb_typeof(extra_data -> 'sort_position') = 'number' THEN (extra_data ->> 'sort_position')::numeric WHEN (extra_data ->> 'sort_position') ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (extra_data ->> 'sort_position')::numeric END), "created_at", "uuid") WHERE "trashed_at" IS NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_parent_sort_idx"`);
    await queryRunner.query(`DROP INDEX "entities_type_meta_key_idx"`);
    await queryRunner.query(`DROP INDEX "entities_menu_meta_key_key"`);
    // Fails if live items of one menu now share a meta_key; rename them first.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entities_child_meta_key_key" ON "entities" ("parent_entity_uuid", "entity_type", lower("meta_key")) WHERE "trashed_at" IS NULL AND "parent_entity_uuid" IS NOT NULL AND "meta_key" IS NOT NULL`,
    );
  }
}
