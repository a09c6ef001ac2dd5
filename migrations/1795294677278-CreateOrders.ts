import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOrders1795294677278 implements MigrationInterface {
  name = 'CreateOrders1795294677278';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "orders" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "order_reference" character varying(16) NOT NULL,
        "menu_uuid" uuid NOT NULL,
        "business_uuid" uuid NOT NULL,
        "owner_uuid" uuid NOT NULL,
        "status" character varying(32) NOT NULL DEFAULT 'pending',
        "payment_status" character varying(16) NOT NULL DEFAULT 'unpaid',
        "payment_processor" character varying(32) NOT NULL,
        "amount" numeric(14,2) NOT NULL,
        "currency" character varying(32),
        "customer_email_address" character varying(320) NOT NULL,
        "customer_phone_number" character varying(32),
        "customer_requested_order_email_copy" boolean NOT NULL DEFAULT false,
        "general_note" text,
        "owner_note" text,
        "delivery_data" jsonb,
        "onpremise_data" jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_orders" PRIMARY KEY ("uuid")
      )`);
    // A short reference people read out; a clash draws a new one.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "orders_order_reference_key" ON "orders" ("order_reference")`,
    );
    // The owner inbox: one owner's orders, newest first, stable paging.
    await queryRunner.query(
      `CREATE INDEX "orders_owner_created_idx" ON "orders" ("owner_uuid", "created_at", "uuid")`,
    );

    await queryRunner.query(`
      CREATE TABLE "order_lines" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "order_uuid" uuid NOT NULL,
        "position" integer NOT NULL,
        "item_uuid" uuid NOT NULL,
        "title_name" character varying(255),
        "category" text,
        "unit_price_amount" numeric(14,2) NOT NULL,
        "quantity" integer NOT NULL,
        "line_total" numeric(14,2) NOT NULL,
        "item_note" text,
        CONSTRAINT "PK_order_lines" PRIMARY KEY ("uuid"),
        CONSTRAINT "FK_order_lines_order" FOREIGN KEY ("order_uuid") REFERENCES "orders"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "order_lines_order_position_key" ON "order_lines" ("order_uuid", "position")`,
    );

    await queryRunner.query(`
      CREATE TABLE "order_events" (
        "id" BIGSERIAL NOT NULL,
        "order_uuid" uuid NOT NULL,
        "field" character varying(32) NOT NULL,
        "from_value" text,
        "to_value" text,
        "actor_uuid" uuid,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_order_events" PRIMARY KEY ("id"),
        CONSTRAINT "FK_order_events_order" FOREIGN KEY ("order_uuid") REFERENCES "orders"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "order_events_order_idx" ON "order_events" ("order_uuid", "id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "notifications" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_uuid" uuid NOT NULL,
        "kind" character varying(64) NOT NULL,
        "title" character varying(255) NOT NULL,
        "body" text NOT NULL,
        "data" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "read_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_notifications" PRIMARY KEY ("uuid")
      )`);
    await queryRunner.query(
      `CREATE INDEX "notifications_user_created_idx" ON "notifications" ("user_uuid", "created_at", "uuid")`,
    );
    // meta.unread counts only the unread ones.
    await queryRunner.query(
      `CREATE INDEX "notifications_user_unread_idx" ON "notifications" ("user_uuid") WHERE "read_at" IS NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE "notification_settings" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_uuid" uuid NOT NULL,
        "device_id" character varying(255) NOT NULL,
        "platform" character varying(64),
        "label" character varying(255),
        "enable_notification" boolean NOT NULL DEFAULT true,
        "providers" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_notification_settings" PRIMARY KEY ("uuid")
      )`);
    // Upsert by device, per user so one user never overwrites another's row.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "notification_settings_user_device_key" ON "notification_settings" ("user_uuid", "device_id")`,
    );

    await queryRunner.query(`
      CREATE TABLE "idempotency_keys" (
        "scope" character varying(64) NOT NULL,
        "key" character varying(128) NOT NULL,
        "request_hash" character varying(64) NOT NULL,
        "response_status" integer,
        "response_body" jsonb,
        "resource_uuid" uuid,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("scope", "key")
      )`);
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
    await queryRunner.query(`DROP TABLE "notification_settings"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
    await queryRunner.query(`DROP TABLE "order_events"`);
    await queryRunner.query(`DROP TABLE "order_lines"`);
    await queryRunner.query(`DROP TABLE "orders"`);
  }
}
