import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stock changes no longer mark a menu's stored storefront stale by raising
 * the version of its one row, which every stocked order of the menu then
 * locked from its last statement to its commit. Each change raises the
 * version of one of a few rows of its menu in `storefront_marks` instead,
 * and a stored storefront keeps in `built_marks` the sum of those versions
 * as of the snapshot it was built from: it is fresh only while the sum is
 * the same. A storefront stored before has no marks and reads 0 = 0.
 */
export class StorefrontMarks1795900300000 implements MigrationInterface {
  name = 'StorefrontMarks1795900300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "storefront_marks" ("menu_uuid" uuid NOT NULL, "shard" smallint NOT NULL, "version" bigint NOT NULL DEFAULT '1', CONSTRAINT "PK_storefront_marks" PRIMARY KEY ("menu_uuid", "shard"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "storefront_documents" ADD "built_marks" bigint NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "storefront_documents" DROP COLUMN "built_marks"`);
    await queryRunner.query(`DROP TABLE "storefront_marks"`);
  }
}
