import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Discount codes per business, and their redemptions keyed by order (the
 * order's email lower-case, for the per-email limit).
 */
export class CreateDiscounts1795730000000 implements MigrationInterface {
  name = 'CreateDiscounts1795730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "discounts" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "code" character varying(32) NOT NULL, "kind" character varying(8) NOT NULL, "value" character varying(20) NOT NULL, "minimum_order_amount" numeric(14,2), "starts_at" TIMESTAMP WITH TIME ZONE, "ends_at" TIMESTAMP WITH TIME ZONE, "max_redemptions" integer, "max_redemptions_per_email" integer, "menu_uuids" jsonb, "enabled" boolean NOT NULL DEFAULT true, "deleted_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_discounts" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "discounts_business_code_key" ON "discounts" ("business_uuid", "code") `,
    );
    await queryRunner.query(
      `CREATE TABLE "discount_redemptions" ("order_uuid" uuid NOT NULL, "discount_uuid" uuid NOT NULL, "email" character varying(320) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_discount_redemptions" PRIMARY KEY ("order_uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "discount_redemptions_discount_email_idx" ON "discount_redemptions" ("discount_uuid", "email") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."discount_redemptions_discount_email_idx"`);
    await queryRunner.query(`DROP TABLE "discount_redemptions"`);
    await queryRunner.query(`DROP INDEX "public"."discounts_business_code_key"`);
    await queryRunner.query(`DROP TABLE "discounts"`);
  }
}
