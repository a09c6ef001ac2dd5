import { MigrationInterface, QueryRunner } from 'typeorm';

const SORT_KEY = `(CASE WHEN jsonb_typeof(extra_data -> 'sort_position') = 'number' THEN (extra_data ->> 'sort_position')::numeric WHEN (extra_data ->> 'sort_position') ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (extra_data ->> 'sort_position')::numeric END)`;

export class ListPageSortIndex1795750000000 implements MigrationInterface {
  name = 'ListPageSortIndex1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A menu's items in list and storefront order, every term of the ORDER BY
    // in the index: the numeric sort key, the key as text (values that are not
    // numbers), created_at, uuid. With the parent and the type as its leading
    // equalities, the page is a walk of the index that stops after per_page
    // rows, with no sort, and the planner takes it without statistics (on a
    // freshly loaded table every index looks alike; the one that needs no
    // sort is the cheapest). The expressions must stay identical to
    // numericSortKey() and orderBy() in src/entity/entity-sql.ts.
    await queryRunner.query(
      `CREATE INDEX "entities_parent_type_sort_idx" ON "entities" ("parent_entity_uuid", "entity_type", ${SORT_KEY}, (extra_data ->> 'sort_position'), "created_at", "uuid") WHERE "trashed_at" IS NULL`,
    );
    await queryRunner.query(`DROP INDEX "entities_parent_sort_idx"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "entities_parent_sort_idx" ON "entities" ("parent_entity_uuid", ${SORT_KEY}, "created_at", "uuid") WHERE "trashed_at" IS NULL`,
    );
    await queryRunner.query(`DROP INDEX "entities_parent_type_sort_idx"`);
  }
}
