import { MigrationInterface, QueryRunner } from 'typeorm';

/** Why the service changed an order (an order not accepted in time), kept with the history entry. */
export class OrderEventReason1795800100000 implements MigrationInterface {
  name = 'OrderEventReason1795800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_events" ADD "reason" character varying(64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "order_events" DROP COLUMN "reason"`);
  }
}
