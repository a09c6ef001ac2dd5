import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who made each change of an order's history: the owner, the guest, the
 * payment provider or the service itself. Earlier rows are the guest's
 * placement (no user) or an owner's update (a user).
 */
export class OrderEventActor1795400000000 implements MigrationInterface {
  name = 'OrderEventActor1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_events" ADD "actor" character varying(16)`);
    await queryRunner.query(
      `UPDATE "order_events" SET "actor" = CASE WHEN "actor_uuid" IS NULL THEN 'guest' ELSE 'owner' END`,
    );
    await queryRunner.query(`ALTER TABLE "order_events" ALTER COLUMN "actor" SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_events" DROP COLUMN "actor"`);
  }
}
