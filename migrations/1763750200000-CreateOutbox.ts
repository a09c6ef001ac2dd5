import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOutbox1763750200000 implements MigrationInterface {
  name = 'CreateOutbox1763750200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "outbox" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "kind" character varying(32) NOT NULL,
        "payload" jsonb NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'pending',
        "attempts" integer NOT NULL DEFAULT 0,
        "available_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_error" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "sent_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_outbox" PRIMARY KEY ("uuid")
      )`);
    // The worker's claim: due pending rows, oldest first.
    await queryRunner.query(
      `CREATE INDEX "outbox_due_idx" ON "outbox" ("available_at") WHERE "status" = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "outbox"`);
  }
}
