import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The record of every change of a business's availability (open, busy,
 * paused): what it became, and who changed it when. The current state lives
 * on the business record's extra_data, which the storefront reads.
 */
export class BusinessAvailabilityChanges1795860000000 implements MigrationInterface {
  name = 'BusinessAvailabilityChanges1795860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "business_availability_changes" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "business_uuid" uuid NOT NULL,
        "mode" character varying(16) NOT NULL,
        "extra_prep_minutes" integer,
        "until" TIMESTAMP WITH TIME ZONE,
        "changed_by" uuid NOT NULL,
        "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_business_availability_changes" PRIMARY KEY ("uuid")
      )`,
    );
    await queryRunner.query(
      `CREATE INDEX "business_availability_changes_business_idx"
         ON "business_availability_changes" ("business_uuid", "changed_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "business_availability_changes_business_idx"`);
    await queryRunner.query(`DROP TABLE "business_availability_changes"`);
  }
}
