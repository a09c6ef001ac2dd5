import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateEntities1763750100000 implements MigrationInterface {
  name = 'CreateEntities1763750100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "entities" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "entity_type" character varying(64) NOT NULL,
        "request_id" character varying(128),
        "slug" character varying(255),
        "meta_key" character varying(255),
        "meta_value" text,
        "title_name" character varying(255),
        "description" text,
        "entity_featured_url" text,
        "status" character varying(16) NOT NULL DEFAULT 'enabled',
        "owned_by" uuid NOT NULL,
        "parent_entity_type" character varying(64),
        "parent_entity_uuid" uuid,
        "extra_data" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "trashed_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_entities" PRIMARY KEY ("uuid")
      )`);
    await queryRunner.query(
      `CREATE INDEX "entities_type_owner_idx" ON "entities" ("entity_type", "owned_by")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_parent_idx" ON "entities" ("parent_entity_uuid")`,
    );
    // One record per (owner, type, request_id): idempotent create.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entities_owner_type_request_key" ON "entities" ("owned_by", "entity_type", "request_id") WHERE "request_id" IS NOT NULL`,
    );
    // A top-level record's (business) meta_key is unique among live ones of its type, ignoring case.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entities_top_meta_key_key" ON "entities" ("entity_type", lower("meta_key")) WHERE "trashed_at" IS NULL AND "parent_entity_uuid" IS NULL AND "meta_key" IS NOT NULL`,
    );
    // A child's (menu) meta_key is unique among the live children of its parent.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entities_child_meta_key_key" ON "entities" ("parent_entity_uuid", "entity_type", lower("meta_key")) WHERE "trashed_at" IS NULL AND "parent_entity_uuid" IS NOT NULL AND "meta_key" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "entities"`);
  }
}
