import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stocked items' portions per period (a local day, or `count`) and the
 * ledger of every change to them. A trigger on the counts marks the stored
 * storefront of the item's menu stale in the transaction of every change of
 * a count (creating its row when there is none yet, as the entities'
 * trigger does), so a storefront never shows what remained before a
 * committed change.
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
    await queryRunner.query(`
      CREATE FUNCTION "stock_counts_touch_storefronts"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE storefront_documents SET version = version + 1
         WHERE menu_uuid = (SELECT parent_entity_uuid FROM entities WHERE uuid = NEW.item_uuid);
        INSERT INTO storefront_documents AS d (business_key, menu_key, business_uuid, menu_uuid)
        SELECT lower(b.meta_key), lower(m.meta_key), b.uuid, m.uuid
          FROM entities i
          JOIN entities m ON m.uuid = i.parent_entity_uuid
          JOIN entities b ON b.uuid = m.parent_entity_uuid AND b.parent_entity_uuid IS NULL
         WHERE i.uuid = NEW.item_uuid AND m.meta_key IS NOT NULL AND b.meta_key IS NOT NULL
           AND m.trashed_at IS NULL AND b.trashed_at IS NULL
        ON CONFLICT (business_key, menu_key) DO NOTHING;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "stock_counts_touch_storefronts"
      AFTER INSERT OR UPDATE ON "stock_counts"
      FOR EACH ROW EXECUTE FUNCTION "stock_counts_touch_storefronts"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "stock_counts_touch_storefronts" ON "stock_counts"`);
    await queryRunner.query(`DROP FUNCTION "stock_counts_touch_storefronts"()`);
    await queryRunner.query(`DROP INDEX "public"."stock_ledger_order_idx"`);
    await queryRunner.query(`DROP INDEX "public"."stock_ledger_item_at_idx"`);
    await queryRunner.query(`DROP TABLE "stock_ledger"`);
    await queryRunner.query(`DROP TABLE "stock_counts"`);
  }
}
