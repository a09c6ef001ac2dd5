import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The finished storefront answer per storefront URL, kept so that any process
 * answers any storefront with one indexed read.
 *
 * A row is fresh while `built_version = version`. The trigger on `entities`
 * bumps `version` inside the transaction of every write to a business, menu
 * or item (create, update, trash, restore), and creates the row of each
 * storefront the write touches when there is none yet, so that a build that
 * read the records before the write can never store itself as fresh: it
 * stores only where the version it read is still the current one.
 */
export class CreateStorefrontDocuments1795450000000 implements MigrationInterface {
  name = 'CreateStorefrontDocuments1795450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "storefront_documents" (
        "business_key" text NOT NULL,
        "menu_key" text NOT NULL,
        "business_uuid" uuid,
        "menu_uuid" uuid,
        "version" bigint NOT NULL DEFAULT 1,
        "built_version" bigint NOT NULL DEFAULT 0,
        "built_at" TIMESTAMP WITH TIME ZONE,
        "body" bytea,
        "data_end" integer,
        "gzip_prefix" bytea,
        "prefix_crc" bigint,
        "etag" text,
        "answer_inputs" jsonb,
        CONSTRAINT "PK_storefront_documents" PRIMARY KEY ("business_key", "menu_key")
      )`);
    // Kept as they are: the body is read whole on every answer, and the gzip prefix is compressed already.
    await queryRunner.query(
      `ALTER TABLE "storefront_documents" ALTER COLUMN "body" SET STORAGE EXTERNAL, ALTER COLUMN "gzip_prefix" SET STORAGE EXTERNAL`,
    );
    await queryRunner.query(
      `CREATE INDEX "storefront_documents_business_idx" ON "storefront_documents" ("business_uuid")`,
    );
    await queryRunner.query(
      `CREATE INDEX "storefront_documents_menu_idx" ON "storefront_documents" ("menu_uuid")`,
    );
    await queryRunner.query(`
      CREATE FUNCTION "storefront_documents_touch"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Every stored storefront built from this record, or from its old or new parent.
        UPDATE storefront_documents SET version = version + 1
         WHERE business_uuid = NEW.uuid
            OR menu_uuid = NEW.uuid
            OR menu_uuid = NEW.parent_entity_uuid
            OR (TG_OP = 'UPDATE' AND menu_uuid = OLD.parent_entity_uuid);
        -- The storefronts the record belongs to now, under their current URL keys,
        -- so that a build which began before this write finds a newer version.
        INSERT INTO storefront_documents AS d (business_key, menu_key, business_uuid, menu_uuid)
        SELECT lower(b.meta_key), lower(m.meta_key), b.uuid, m.uuid
          FROM entities m
          JOIN entities b ON b.uuid = m.parent_entity_uuid AND b.parent_entity_uuid IS NULL
         WHERE m.meta_key IS NOT NULL AND b.meta_key IS NOT NULL
           AND m.parent_entity_uuid IS NOT NULL AND m.trashed_at IS NULL AND b.trashed_at IS NULL
           AND (m.uuid = NEW.uuid OR m.uuid = NEW.parent_entity_uuid OR m.parent_entity_uuid = NEW.uuid)
        ON CONFLICT (business_key, menu_key) DO UPDATE SET version = d.version + 1
         WHERE d.business_uuid IS DISTINCT FROM EXCLUDED.business_uuid
            OR d.menu_uuid IS DISTINCT FROM EXCLUDED.menu_uuid;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "entities_storefront_documents_touch"
      AFTER INSERT OR UPDATE ON "entities"
      FOR EACH ROW EXECUTE FUNCTION "storefront_documents_touch"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "entities_storefront_documents_touch" ON "entities"`);
    await queryRunner.query(`DROP FUNCTION "storefront_documents_touch"()`);
    await queryRunner.query(`DROP TABLE "storefront_documents"`);
  }
}
