import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments collected, not only recorded: the payment's state and amounts on
 * the order, every provider event acted on (unique per provider and event,
 * so a replay is recognised), and the refunds of each order.
 * `payment_status` widens to hold `partially_refunded`.
 */
export class OrderPayments1795430000000 implements MigrationInterface {
  name = 'OrderPayments1795430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "payment_events" ("id" BIGSERIAL NOT NULL, "provider" character varying(32) NOT NULL, "event_key" character varying(200) NOT NULL, "event_type" character varying(64) NOT NULL, "reference" character varying(100) NOT NULL, "order_uuid" uuid NOT NULL, "outcome" character varying(32) NOT NULL, "detail" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_payment_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "payment_events_order_idx" ON "payment_events" ("order_uuid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "payment_events_provider_key" ON "payment_events" ("provider", "event_key") `,
    );
    await queryRunner.query(
      `CREATE TABLE "payment_refunds" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "order_uuid" uuid NOT NULL, "provider" character varying(32) NOT NULL, "amount" numeric(14,2) NOT NULL, "reason" text, "status" character varying(16) NOT NULL, "provider_refund_id" character varying(100), "requested_by" uuid, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_payment_refunds" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "payment_refunds_order_idx" ON "payment_refunds" ("order_uuid", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ALTER COLUMN "payment_status" TYPE character varying(24)`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_state" character varying(24) NOT NULL DEFAULT 'unpaid'`,
    );
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
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "amount_paid" numeric(14,2) NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "amount_refunded" numeric(14,2) NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "paid_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "orders" ADD "payment_transaction_id" character varying(64)`,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "payment_error" text`);
    // Orders from before were all settled offline by their owner.
    await queryRunner.query(
      `UPDATE "orders" SET "payment_state" = "payment_status",
         "amount_paid" = CASE WHEN "payment_status" = 'paid' THEN "amount" ELSE 0 END
       WHERE "payment_status" <> 'unpaid'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_error"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_transaction_id"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "paid_at"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "amount_refunded"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "amount_paid"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_instructions"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_callback_url"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_access_code"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_authorization_url"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_attempts"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_reference"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_collect"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "payment_state"`);
    await queryRunner.query(
      `UPDATE "orders" SET "payment_status" = 'paid' WHERE "payment_status" = 'partially_refunded'`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ALTER COLUMN "payment_status" TYPE character varying(16)`,
    );
    await queryRunner.query(`DROP INDEX "public"."payment_refunds_order_idx"`);
    await queryRunner.query(`DROP TABLE "payment_refunds"`);
    await queryRunner.query(`DROP INDEX "public"."payment_events_provider_key"`);
    await queryRunner.query(`DROP INDEX "public"."payment_events_order_idx"`);
    await queryRunner.query(`DROP TABLE "payment_events"`);
  }
}
