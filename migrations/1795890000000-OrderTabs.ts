import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Orders taken by the team and tables' tabs: each order names where it came
 * from (`online` for every order placed so far), the member who took it and
 * the tab it is a round of; tabs and the shares their bills are split into.
 * At most one tab of a menu's table is not closed. A payment may pay a share
 * of a tab instead of an order.
 */
export class OrderTabs1795890000000 implements MigrationInterface {
  name = 'OrderTabs1795890000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "tabs" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "menu_uuid" uuid NOT NULL, "owner_uuid" uuid NOT NULL, "table" character varying(255) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'open', "currency" character varying(32), "opened_by" uuid, "opened_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "closed_at" TIMESTAMP WITH TIME ZONE, "closed_by" uuid, "closed_by_role" character varying(16), "close_reason" character varying(500), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tabs" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tabs_business_opened_idx" ON "tabs" ("business_uuid", "opened_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "tabs_open_table_key" ON "tabs" ("menu_uuid", "table") WHERE status <> 'closed'`,
    );
    await queryRunner.query(
      `CREATE TABLE "tab_shares" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "tab_uuid" uuid NOT NULL, "position" integer NOT NULL, "amount" numeric(14,2) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'unpaid', "split_by" character varying(16) NOT NULL, "lines" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tab_shares" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "tab_shares_tab_idx" ON "tab_shares" ("tab_uuid", "position") `,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "channel" character varying(16) NOT NULL DEFAULT 'online'`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "created_by" uuid`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "tab_uuid" uuid`);
    await queryRunner.query(
      `CREATE INDEX "orders_tab_idx" ON "orders" ("tab_uuid") WHERE tab_uuid IS NOT NULL`,
    );
    // A payment pays an order, or a share of a tab (then its order is null).
    await queryRunner.query(`ALTER TABLE "payments" ALTER COLUMN "order_uuid" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "payment_events" ALTER COLUMN "order_uuid" DROP NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "payments_share_idx" ON "payments" ("share_uuid") WHERE share_uuid IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."payments_share_idx"`);
    await queryRunner.query(`DELETE FROM "payment_events" WHERE "order_uuid" IS NULL`);
    await queryRunner.query(`ALTER TABLE "payment_events" ALTER COLUMN "order_uuid" SET NOT NULL`);
    await queryRunner.query(`DELETE FROM "payments" WHERE "order_uuid" IS NULL`);
    await queryRunner.query(`ALTER TABLE "payments" ALTER COLUMN "order_uuid" SET NOT NULL`);
    await queryRunner.query(`DROP INDEX "public"."orders_tab_idx"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "tab_uuid"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "created_by"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "channel"`);
    await queryRunner.query(`DROP INDEX "public"."tab_shares_tab_idx"`);
    await queryRunner.query(`DROP TABLE "tab_shares"`);
    await queryRunner.query(`DROP INDEX "public"."tabs_open_table_key"`);
    await queryRunner.query(`DROP INDEX "public"."tabs_business_opened_idx"`);
    await queryRunner.query(`DROP TABLE "tabs"`);
  }
}
