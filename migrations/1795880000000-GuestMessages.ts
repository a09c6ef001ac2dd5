import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Guest messages by WhatsApp and SMS: the message log (one row per order,
 * event and channel: unique, so an event gives one message per channel
 * whichever process sees it), the guests' consents with their time, the
 * numbers that stopped a business's messages, and the months whose limit a
 * business's owner was told of.
 */
export class GuestMessages1795880000000 implements MigrationInterface {
  name = 'GuestMessages1795880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "guest_messages" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "order_uuid" uuid NOT NULL, "event" character varying(32) NOT NULL, "channel" character varying(16) NOT NULL, "phone" character varying(32) NOT NULL, "language" character varying(8) NOT NULL, "parameters" jsonb NOT NULL, "status" character varying(16) NOT NULL, "provider" character varying(16), "provider_message_id" character varying(128), "error" text, "fallback" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_guest_messages" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "guest_messages_provider_id_idx" ON "guest_messages" ("provider_message_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "guest_messages_business_created_idx" ON "guest_messages" ("business_uuid", "created_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "guest_messages_order_event_channel" ON "guest_messages" ("order_uuid", "event", "channel") `,
    );
    await queryRunner.query(
      `CREATE TABLE "guest_message_consents" ("order_uuid" uuid NOT NULL, "business_uuid" uuid NOT NULL, "channel" character varying(16) NOT NULL, "phone" character varying(32) NOT NULL, "consented_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_guest_message_consents" PRIMARY KEY ("order_uuid"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "guest_message_stops" ("business_uuid" uuid NOT NULL, "phone" character varying(32) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_guest_message_stops" PRIMARY KEY ("business_uuid", "phone"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "guest_message_limit_notices" ("business_uuid" uuid NOT NULL, "month" character varying(7) NOT NULL, CONSTRAINT "PK_guest_message_limit_notices" PRIMARY KEY ("business_uuid", "month"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "guest_message_limit_notices"`);
    await queryRunner.query(`DROP TABLE "guest_message_stops"`);
    await queryRunner.query(`DROP TABLE "guest_message_consents"`);
    await queryRunner.query(`DROP INDEX "public"."guest_messages_order_event_channel"`);
    await queryRunner.query(`DROP INDEX "public"."guest_messages_business_created_idx"`);
    await queryRunner.query(`DROP INDEX "public"."guest_messages_provider_id_idx"`);
    await queryRunner.query(`DROP TABLE "guest_messages"`);
  }
}
