import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The people who work for a business: invitations (with the SHA-256 of their
 * emailed token) and memberships, one row per address and business. And who
 * last wrote each entity record: existing records were written by their owner.
 */
export class TeamMembers1795619582698 implements MigrationInterface {
  name = 'TeamMembers1795619582698';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "business_members" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "email" character varying(320) NOT NULL, "role" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "user_uuid" uuid, "token_hash" character varying(64), "invited_by" uuid NOT NULL, "invited_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_business_members" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "business_members_token_key" ON "business_members" ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "business_members_user_idx" ON "business_members" ("user_uuid", "business_uuid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "business_members_business_email_key" ON "business_members" ("business_uuid", "email") `,
    );
    await queryRunner.query(`ALTER TABLE "entities" ADD "updated_by" uuid`);
    await queryRunner.query(`UPDATE "entities" SET "updated_by" = "owned_by"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entities" DROP COLUMN "updated_by"`);
    await queryRunner.query(`DROP INDEX "public"."business_members_business_email_key"`);
    await queryRunner.query(`DROP INDEX "public"."business_members_user_idx"`);
    await queryRunner.query(`DROP INDEX "public"."business_members_token_key"`);
    await queryRunner.query(`DROP TABLE "business_members"`);
  }
}
