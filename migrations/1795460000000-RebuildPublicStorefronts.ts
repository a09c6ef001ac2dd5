import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storefront documents stored before private settings (the Paystack
 * subaccount code, `private_*` keys of extra_data) were left out of public
 * answers still carry them: mark every stored document stale so the next
 * read builds it again without them.
 */
export class RebuildPublicStorefronts1795460000000 implements MigrationInterface {
  name = 'RebuildPublicStorefronts1795460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "storefront_documents" SET "version" = "version" + 1`);
  }

  async down(): Promise<void> {
    // Nothing to undo: a stale document is rebuilt by its next read.
  }
}
