import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The language an order was placed in, among its menu's languages, for the
 * guest's mails; null for orders of menus without languages (and before).
 */
export class OrderLanguage1795900100000 implements MigrationInterface {
  name = 'OrderLanguage1795900100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" ADD "language" character varying(35)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "language"`);
  }
}
