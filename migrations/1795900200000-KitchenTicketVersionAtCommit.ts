import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A business's latest ticket version in a row of its own, which every
 * change of its tickets updates to take the next (its lock held until the
 * commit keeps the versions committing in order); filled from the tickets
 * there are. A new ticket's version is given just before the commit of the
 * transaction that writes it, so the lock is held as briefly as it can be;
 * until then, inside that transaction only, the version is null.
 */
export class KitchenTicketVersionAtCommit1795900200000 implements MigrationInterface {
  name = 'KitchenTicketVersionAtCommit1795900200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "kitchen_ticket_versions" ("business_uuid" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_kitchen_ticket_versions" PRIMARY KEY ("business_uuid"))`,
    );
    await queryRunner.query(
      `INSERT INTO "kitchen_ticket_versions" ("business_uuid", "version") SELECT "business_uuid", max("version") FROM "kitchen_tickets" GROUP BY "business_uuid"`,
    );
    await queryRunner.query(`ALTER TABLE "kitchen_tickets" ALTER COLUMN "version" DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "kitchen_tickets" ALTER COLUMN "version" SET NOT NULL`);
    await queryRunner.query(`DROP TABLE "kitchen_ticket_versions"`);
  }
}
