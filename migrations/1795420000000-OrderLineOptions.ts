import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The options chosen on an order line (group, option, their titles and the
 * price delta), kept as they were when the order was placed. Earlier lines
 * had no options.
 */
export class OrderLineOptions1795420000000 implements MigrationInterface {
  name = 'OrderLineOptions1795420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_lines" ADD "options" jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_lines" DROP COLUMN "options"`);
  }
}
