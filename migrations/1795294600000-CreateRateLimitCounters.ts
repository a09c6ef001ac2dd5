import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRateLimitCounters1795294600000 implements MigrationInterface {
  name = 'CreateRateLimitCounters1795294600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "rate_limit_counters" (
        "bucket" character varying(64) NOT NULL,
        "subject" character varying(64) NOT NULL,
        "window_start" TIMESTAMP WITH TIME ZONE NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "hits" integer NOT NULL DEFAULT 1,
        CONSTRAINT "PK_rate_limit_counters" PRIMARY KEY ("bucket", "subject", "window_start")
      )`);
    // The sweep deletes ended windows.
    await queryRunner.query(
      `CREATE INDEX "rate_limit_counters_expires_idx" ON "rate_limit_counters" ("expires_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
  }
}
