import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments become records of their own: one row per attempt to collect money
 * for an order, refunds linked to the payment they give back. Every order's
 * payment columns move into rows without loss, then the columns go; the
 * order keeps `payment_status`, `payment_state`, `amount_paid` and
 * `amount_refunded` as the read model of its payments (reports and lists
 * filter and sum them).
 *
 * Each order gets one payment carrying its columns. An online order's
 * earlier checkouts (`<reference>-<n>` up to its attempts) get a row each,
 * `abandoned`, so a late webhook for one of them still finds its payment and
 * the money counts. A refund the owner set by hand without a refund row (the
 * old manual `refunded`) gets the row that makes the sums agree.
 */
export class PaymentRecords1795800000000 implements MigrationInterface {
  name = 'PaymentRecords1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payments" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "order_uuid" uuid NOT NULL, "share_uuid" uuid, "business_uuid" uuid NOT NULL, "method" character varying(32) NOT NULL, "channel" character varying(16) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "amount" numeric(14,2) NOT NULL, "amount_paid" numeric(14,2) NOT NULL DEFAULT '0', "tip_amount" numeric(14,2) NOT NULL DEFAULT '0', "currency" character varying(32), "reference" character varying(64), "transaction_id" character varying(64), "next_action" jsonb, "authorization_url" text, "access_code" character varying(128), "callback_url" text, "instructions" jsonb, "error" text, "failure" character varying(16), "paid_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE, "next_check_at" TIMESTAMP WITH TIME ZONE, "recorded_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_payments" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "payments_order_idx" ON "payments" ("order_uuid", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "payments_reference_key" ON "payments" ("reference") `,
    );
    await queryRunner.query(
      `CREATE INDEX "payments_check_due_idx" ON "payments" ("next_check_at") WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "payments_business_paid_idx" ON "payments" ("business_uuid", "order_uuid") WHERE status = 'paid'`,
    );
    await queryRunner.query(`ALTER TABLE "payment_refunds" ADD "payment_uuid" uuid`);
    await queryRunner.query(`ALTER TABLE "payment_events" ADD "payment_uuid" uuid`);

    // One payment per order, carrying its columns; a millisecond after the
    // order so it sorts after the earlier checkouts below.
    await queryRunner.query(
      `INSERT INTO "payments" ("order_uuid", "business_uuid", "method", "channel", "status", "amount",
         "amount_paid", "currency", "reference", "transaction_id", "authorization_url", "access_code",
         "callback_url", "instructions", "error", "failure", "paid_at", "created_at", "updated_at")
       SELECT o."uuid", o."business_uuid", o."payment_processor",
         CASE WHEN o."payment_collect" = 'online' THEN 'checkout' ELSE 'manual' END,
         CASE WHEN o."payment_state" IN ('paid', 'overpaid', 'partially_refunded', 'refunded')
                   AND o."amount_paid" > 0 THEN 'paid'
              WHEN o."payment_state" IN ('paid', 'overpaid', 'partially_refunded', 'refunded') THEN 'abandoned'
              WHEN o."payment_state" IN ('failed', 'mismatch') THEN 'failed'
              ELSE 'pending' END,
         o."amount", o."amount_paid", o."currency", o."payment_reference", o."payment_transaction_id",
         o."payment_authorization_url", o."payment_access_code", o."payment_callback_url",
         o."payment_instructions", o."payment_error",
         CASE o."payment_state" WHEN 'mismatch' THEN 'mismatch' WHEN 'failed' THEN 'declined' END,
         o."paid_at", o."created_at" + interval '1 millisecond', o."updated_at"
       FROM "orders" o`,
    );
    await queryRunner.query(
      `UPDATE "payment_refunds" r SET "payment_uuid" = p."uuid"
       FROM "payments" p WHERE p."order_uuid" = r."order_uuid"`,
    );
    await queryRunner.query(
      `UPDATE "payment_events" e SET "payment_uuid" = p."uuid"
       FROM "payments" p WHERE p."order_uuid" = e."order_uuid"`,
    );
    // What was refunded by hand without a refund row: one row for the difference.
    await queryRunner.query(
      `INSERT INTO "payment_refunds" ("order_uuid", "payment_uuid", "provider", "amount", "reason", "status", "created_at")
       SELECT o."uuid", p."uuid", o."payment_processor",
         o."amount_refunded" - coalesce(r."counted", 0), 'Recorded as refunded by hand', 'succeeded',
         o."updated_at"
       FROM "orders" o
       JOIN "payments" p ON p."order_uuid" = o."uuid"
       LEFT JOIN (SELECT "order_uuid", sum("amount") AS "counted" FROM "payment_refunds"
                  WHERE "status" IN ('succeeded', 'processed') GROUP BY "order_uuid") r
         ON r."order_uuid" = o."uuid"
       WHERE o."amount_refunded" > coalesce(r."counted", 0)
          OR (o."payment_state" = 'refunded' AND r."counted" IS NULL)`,
    );
    // The earlier checkouts of online orders.
    await queryRunner.query(
      `INSERT INTO "payments" ("order_uuid", "business_uuid", "method", "channel", "status", "amount",
         "currency", "reference", "created_at", "updated_at")
       SELECT o."uuid", o."business_uuid", o."payment_processor", 'checkout', 'abandoned', o."amount",
         o."currency", o."order_reference" || '-' || n, o."created_at", o."created_at"
       FROM "orders" o CROSS JOIN LATERAL generate_series(1, o."payment_attempts") AS n
       WHERE o."payment_collect" = 'online'
         AND o."order_reference" || '-' || n IS DISTINCT FROM o."payment_reference"`,
    );
    await queryRunner.query(
      `ALTER TABLE "payment_refunds" ALTER COLUMN "payment_uuid" SET NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "payment_refunds_payment_idx" ON "payment_refunds" ("payment_uuid") `,
    );
    for (const column of [
      'payment_collect',
      'payment_reference',
      'payment_attempts',
      'payment_authorization_url',
      'payment_access_code',
      'payment_callback_url',
      'payment_instructions',
      'paid_at',
      'payment_transaction_id',
      'payment_error',
    ]) {
      await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "${column}"`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_collect" character varying(8) NOT NULL DEFAULT 'offline'`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_reference" character varying(64)`);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_attempts" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_authorization_url" text`);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_access_code" character varying(128)`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_callback_url" text`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_instructions" jsonb`);
    await queryRunner.query(`ALTER TABLE "orders" ADD "paid_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_transaction_id" character varying(64)`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_error" text`);
    // The latest attempt of each order goes back on the order.
    await queryRunner.query(
      `UPDATE "orders" o SET "payment_collect" = CASE WHEN p."channel" = 'manual' THEN 'offline' ELSE 'online' END,
         "payment_reference" = p."reference", "payment_authorization_url" = p."authorization_url",
         "payment_access_code" = p."access_code", "payment_callback_url" = p."callback_url",
         "payment_instructions" = p."instructions", "paid_at" = p."paid_at",
         "payment_transaction_id" = p."transaction_id", "payment_error" = p."error",
         "payment_attempts" = (SELECT count(*) FROM "payments" c
                               WHERE c."order_uuid" = o."uuid" AND c."channel" <> 'manual')
       FROM (SELECT DISTINCT ON ("order_uuid") * FROM "payments"
             ORDER BY "order_uuid", "created_at" DESC) p
       WHERE p."order_uuid" = o."uuid"`,
    );
    await queryRunner.query(`DROP INDEX "public"."payment_refunds_payment_idx"`);
    await queryRunner.query(`ALTER TABLE "payment_events" DROP COLUMN "payment_uuid"`);
    await queryRunner.query(`ALTER TABLE "payment_refunds" DROP COLUMN "payment_uuid"`);
    await queryRunner.query(`DROP TABLE "payments"`);
  }
}
