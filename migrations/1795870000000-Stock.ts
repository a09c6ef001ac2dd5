import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stocked items' portions per period (a local day, or `count`) and the
 * ledger of every change to them.
 */
export class Stock1795870000000 implements MigrationInterface {
  name = 'Stock1795870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stock_counts" ("item_uuid" uuid NOT NULL, "period" character varying(10) NOT NULL, "business_uuid" uuid NOT NULL, "taken" integer NOT NULL DEFAULT 0, "adjusted" integer NOT NULL DEFAULT 0, CONSTRAINT "PK_stock_counts" PRIMARY KEY ("item_uuid", "period"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "stock_ledger" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "item_uuid" uuid NOT NULL, "period" character varying(10) NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, "delta" integer NOT NULL, "reason" character varying(16) NOT NULL, "note" character varying(500), "order_uuid" uuid, "by_uuid" uuid, "actor" character varying(16) NOT NULL, CONSTRAINT "PK_stock_ledger" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_ledger_item_at_idx" ON "stock_ledger" ("item_uuid", "at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_ledger_order_idx" ON "stock_ledger" ("order_uuid") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."stock_ledger_order_idx"`);
    await queryRunner.query(`DROP INDEX "public"."stock_ledger_item_at_idx"`);
    await queryRunner.query(`DROP TABLE "stock_ledger"`);
    await queryRunner.query(`DROP TABLE "stock_counts"`);
  }
}
