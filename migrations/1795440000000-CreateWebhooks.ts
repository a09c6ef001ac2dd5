import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: the owners' endpoints, the events fixed for each
 * endpoint when an order changed, and one row per delivery attempt.
 */
export class CreateWebhooks1795440000000 implements MigrationInterface {
  name = 'CreateWebhooks1795440000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_endpoints" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "owner_uuid" uuid NOT NULL,
        "business_uuid" uuid,
        "url" text NOT NULL,
        "description" character varying(500),
        "events" jsonb NOT NULL,
        "secret_ciphertext" text NOT NULL,
        "enabled" boolean NOT NULL DEFAULT true,
        "consecutive_failures" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhook_endpoints" PRIMARY KEY ("uuid")
      )`);
    // The owner's list, and the endpoints an order change looks up.
    await queryRunner.query(
      `CREATE INDEX "webhook_endpoints_owner_created_idx" ON "webhook_endpoints" ("owner_uuid", "created_at", "uuid")`,
    );

    await queryRunner.query(`
      CREATE TABLE "webhook_events" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "endpoint_uuid" uuid NOT NULL,
        "type" character varying(64) NOT NULL,
        "body" text NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_webhook_events" PRIMARY KEY ("uuid"),
        CONSTRAINT "FK_webhook_events_endpoint" FOREIGN KEY ("endpoint_uuid") REFERENCES "webhook_endpoints"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await queryRunner.query(
      `CREATE INDEX "webhook_events_endpoint_idx" ON "webhook_events" ("endpoint_uuid")`,
    );

    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "event_uuid" uuid NOT NULL,
        "endpoint_uuid" uuid NOT NULL,
        "attempt" integer NOT NULL,
        "status" character varying(16) NOT NULL DEFAULT 'pending',
        "response_status" integer,
        "error" text,
        "response_body" text,
        "duration_ms" integer,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "next_attempt_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY ("uuid"),
        CONSTRAINT "FK_webhook_deliveries_event" FOREIGN KEY ("event_uuid") REFERENCES "webhook_events"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION,
        CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_uuid") REFERENCES "webhook_endpoints"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    // The delivery log of an endpoint, newest first, stable paging.
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" ("endpoint_uuid", "created_at", "uuid")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "webhook_deliveries_event_attempt_key" ON "webhook_deliveries" ("event_uuid", "attempt")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP TABLE "webhook_events"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
