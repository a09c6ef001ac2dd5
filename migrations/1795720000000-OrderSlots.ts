import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many orders for later hold each time slot of a menu. Placement counts
 * up with one locked upsert that refuses to pass the menu's cap, so
 * simultaneous placements never overbook a slot; a cancelled or rejected
 * order counts down and frees its place.
 */
export class OrderSlots1795720000000 implements MigrationInterface {
  name = 'OrderSlots1795720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "order_slots" (
        "menu_uuid" uuid NOT NULL,
        "slot_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "taken" integer NOT NULL DEFAULT 0,
        CONSTRAINT "PK_order_slots" PRIMARY KEY ("menu_uuid", "slot_start")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "order_slots"`);
  }
}
