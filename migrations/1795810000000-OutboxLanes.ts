import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery in lanes: each row names its receiver (a webhook endpoint, a
 * message provider) so a process keeps at most a few of one receiver's rows
 * in flight, and each lane finds its due rows in an index of its own kinds.
 */
export class OutboxLanes1795810000000 implements MigrationInterface {
  name = 'OutboxLanes1795810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "outbox" ADD "receiver" character varying(200)`);
    // Webhook attempts still waiting get their endpoint, so the cap holds for them too.
    await queryRunner.query(`
      UPDATE "outbox" o SET "receiver" = d."endpoint_uuid"::text
        FROM "webhook_deliveries" d
       WHERE o."kind" = 'webhook' AND o."status" = 'pending'
         AND d."uuid"::text = o."payload"->>'attempt_uuid'`);
    await queryRunner.query(`DROP INDEX "outbox_due_idx"`);
    // A lane's claim: its kinds' due pending rows, oldest first.
    await queryRunner.query(
      `CREATE INDEX "outbox_lane_due_idx" ON "outbox" ("kind", "available_at") WHERE "status" = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "outbox_lane_due_idx"`);
    await queryRunner.query(
      `CREATE INDEX "outbox_due_idx" ON "outbox" ("available_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE "outbox" DROP COLUMN "receiver"`);
  }
}
