import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery zone an order was priced by, as it was when the order was
 * placed (its key and title), and the zone's minutes from ready to
 * delivered, from which the order's estimated delivery time follows its
 * ready time. Both null for an order not delivered by zone.
 */
export class OrderDeliveryZone1795840000000 implements MigrationInterface {
  name = 'OrderDeliveryZone1795840000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" ADD "delivery_zone" jsonb`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "delivery_eta_minutes" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "delivery_eta_minutes"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "delivery_zone"`);
  }
}
