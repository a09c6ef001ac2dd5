import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reports and the CSV export read one business's orders over a period of
 * time. With (business_uuid, created_at, uuid) both bounds are index
 * conditions, so a year of one business is one range scan in created_at
 * order whatever the planner's statistics say, and the export's keyset
 * batches (created_at, uuid) continue where the last one stopped.
 */
export class OrderReportIndex1795740000000 implements MigrationInterface {
  name = 'OrderReportIndex1795740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "orders_business_created_idx" ON "orders" ("business_uuid", "created_at", "uuid")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."orders_business_created_idx"`);
  }
}
