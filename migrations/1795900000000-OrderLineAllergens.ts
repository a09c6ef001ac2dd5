import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The allergens of each order line's item and chosen options, as they were
 * when the order was placed, so the kitchen sees them whatever the menu says
 * later. Lines placed before have none recorded ([]).
 */
export class OrderLineAllergens1795900000000 implements MigrationInterface {
  name = 'OrderLineAllergens1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "order_lines" ADD "allergens" jsonb NOT NULL DEFAULT '[]'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_lines" DROP COLUMN "allergens"`);
  }
}
