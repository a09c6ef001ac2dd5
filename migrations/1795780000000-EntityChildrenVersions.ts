import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A version per parent record that changes with anything a list of its
 * children can show, so that a list filtered by `parent_entity_uuid` knows
 * whether it changed from one primary-key read.
 *
 * What such a list shows depends on the children themselves (every column,
 * which ones are live, the total) and on the state of the parent and of the
 * parent's parent (public lists show a menu's items only while the menu and
 * its business are enabled and not trashed; a member sees a menu's items by
 * the menu's business). The trigger on `entities` therefore sets a new
 * version, inside the writer's transaction:
 *
 * - for the old and the new parent of every inserted, updated or deleted row;
 * - for the row itself and each of its children when its status, trash,
 *   type or parent changes, or when it is deleted (the lists of its children
 *   and of its grandchildren depend on it). Entity types nest three deep
 *   (business, menu, item), so that reaches every list that can change.
 *
 * A new row needs no version of its own: it has no children yet, and a list
 * of the children of a record that does not exist is empty for everyone.
 *
 * Versions come from one sequence, so a parent never has the same version
 * twice, even across a rolled-back write or a TRUNCATE (which empties the
 * table: every list is then empty, as for a parent without a row). A parent
 * without a row is version 0; the rows of the parents that have children
 * are made here, so that version 0 always means a list that has been empty
 * since this migration.
 */
export class EntityChildrenVersions1795780000000 implements MigrationInterface {
  name = 'EntityChildrenVersions1795780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE "entity_children_version_seq"`);
    await queryRunner.query(`
      CREATE TABLE "entity_children_versions" (
        "parent_uuid" uuid NOT NULL,
        "version" bigint NOT NULL,
        CONSTRAINT "PK_entity_children_versions" PRIMARY KEY ("parent_uuid")
      )`);
    await queryRunner.query(`
      INSERT INTO "entity_children_versions" ("parent_uuid", "version")
      SELECT p.parent_uuid, nextval('entity_children_version_seq')
        FROM (SELECT DISTINCT parent_entity_uuid AS parent_uuid FROM entities
               WHERE parent_entity_uuid IS NOT NULL) p`);
    await queryRunner.query(`
      CREATE FUNCTION "entity_children_versions_touch"() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        touched uuid[] := '{}';
        itself boolean := false;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          touched := ARRAY[NEW.parent_entity_uuid];
        ELSIF TG_OP = 'DELETE' THEN
          touched := ARRAY[OLD.parent_entity_uuid];
          itself := true;
        ELSE
          touched := ARRAY[OLD.parent_entity_uuid, NEW.parent_entity_uuid];
          itself := (OLD.uuid, OLD.status, OLD.trashed_at, OLD.entity_type, OLD.parent_entity_uuid)
            IS DISTINCT FROM (NEW.uuid, NEW.status, NEW.trashed_at, NEW.entity_type, NEW.parent_entity_uuid);
        END IF;
        IF itself THEN
          touched := touched || OLD.uuid
            || ARRAY(SELECT c.uuid FROM entities c WHERE c.parent_entity_uuid = OLD.uuid);
        END IF;
        -- In uuid order, so that two writers lock shared rows in the same order.
        INSERT INTO entity_children_versions AS v (parent_uuid, version)
        SELECT t.id, nextval('entity_children_version_seq')
          FROM (SELECT DISTINCT id FROM unnest(touched) AS u(id) WHERE id IS NOT NULL ORDER BY id) t
        ON CONFLICT (parent_uuid) DO UPDATE SET version = EXCLUDED.version;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "entities_children_versions_touch"
      AFTER INSERT OR UPDATE OR DELETE ON "entities"
      FOR EACH ROW EXECUTE FUNCTION "entity_children_versions_touch"()`);
    await queryRunner.query(`
      CREATE FUNCTION "entity_children_versions_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM entity_children_versions;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "entities_children_versions_clear"
      AFTER TRUNCATE ON "entities"
      FOR EACH STATEMENT EXECUTE FUNCTION "entity_children_versions_clear"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "entities_children_versions_clear" ON "entities"`);
    await queryRunner.query(`DROP FUNCTION "entity_children_versions_clear"()`);
    await queryRunner.query(`DROP TRIGGER "entities_children_versions_touch" ON "entities"`);
    await queryRunner.query(`DROP FUNCTION "entity_children_versions_touch"()`);
    await queryRunner.query(`DROP TABLE "entity_children_versions"`);
    await queryRunner.query(`DROP SEQUENCE "entity_children_version_seq"`);
  }
}
