import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How an order is handed over (dine-in, pickup, delivery; for now or for a
 * requested time, with the time it should be ready) and its price broken into
 * lines: items, delivery fee, discount, service charge, tax, tip, and the rates
 * used at placement, so a later change of settings never changes a placed
 * order. Existing orders are filled from what they already hold: the type
 * inferred from their delivery address, delivery line and on-premise location,
 * the delivery line's total as the fee and the rest of the amount as the items.
 */
export class OrderFulfilmentAndPricing1795700000000 implements MigrationInterface {
  name = 'OrderFulfilmentAndPricing1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "orders"
        ADD "fulfilment_type" character varying(16) NOT NULL DEFAULT 'pickup',
        ADD "requested_time" TIMESTAMP WITH TIME ZONE,
        ADD "estimated_ready_at" TIMESTAMP WITH TIME ZONE,
        ADD "items_subtotal" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "delivery_fee" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "discount" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "discount_code" character varying(32),
        ADD "discount_uuid" uuid,
        ADD "service_charge" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "tax" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "tax_inclusive" boolean NOT NULL DEFAULT false,
        ADD "tip" numeric(14,2) NOT NULL DEFAULT '0',
        ADD "pricing_rates" jsonb`,
    );
    await queryRunner.query(
      `UPDATE "orders" o SET
         "delivery_fee" = COALESCE(d.fee, 0),
         "items_subtotal" = o."amount" - COALESCE(d.fee, 0),
         "fulfilment_type" = CASE
           WHEN d.fee IS NOT NULL OR btrim(COALESCE(o."delivery_data"->>'delivery_address', '')) <> '' THEN 'delivery'
           WHEN COALESCE(o."onpremise_data"->>'customer_onpremise_location', '') NOT IN ('', '_') THEN 'dine_in'
           ELSE 'pickup' END
       FROM "orders" o2
       LEFT JOIN LATERAL (
         SELECT sum(l."line_total") AS fee FROM "order_lines" l
          WHERE l."order_uuid" = o2."uuid" AND lower(btrim(COALESCE(l."category", ''))) = 'delivery'
       ) d ON true
       WHERE o2."uuid" = o."uuid"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "orders"
        DROP COLUMN "pricing_rates", DROP COLUMN "tip", DROP COLUMN "tax_inclusive",
        DROP COLUMN "tax", DROP COLUMN "service_charge", DROP COLUMN "discount_uuid",
        DROP COLUMN "discount_code", DROP COLUMN "discount", DROP COLUMN "delivery_fee",
        DROP COLUMN "items_subtotal", DROP COLUMN "estimated_ready_at",
        DROP COLUMN "requested_time", DROP COLUMN "fulfilment_type"`,
    );
  }
}
