import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront documents stored before `updated_by` (the uuid of the owner or
 * team member who last wrote a record) was left out of public answers still
 * carry it: mark every stored document stale so the next read builds it
 * again without it.
 */
export class RebuildStorefrontsWithoutAuthors1795820000000 implements MigrationInterface {
  name = 'RebuildStorefrontsWithoutAuthors1795820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "storefront_documents" SET "version" = "version" + 1`);
  }

  async down(): Promise<void> {
    // Nothing to undo: a stale document is rebuilt by its next read.
  }
}
