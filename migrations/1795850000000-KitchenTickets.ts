import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The kitchen's tickets: one per station with lines of an accepted order
 * (`new`), or of a cancelled one (`void`), with their lines and progress.
 * One of each kind per order and station; `version` orders a business's
 * changes for the list's `since` cursor.
 */
export class KitchenTickets1795850000000 implements MigrationInterface {
  name = 'KitchenTickets1795850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "kitchen_tickets" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "business_uuid" uuid NOT NULL, "order_uuid" uuid NOT NULL, "order_reference" character varying(16) NOT NULL, "station" character varying(32) NOT NULL, "kind" character varying(8) NOT NULL, "fulfilment_type" character varying(16) NOT NULL, "table_label" text, "requested_time" TIMESTAMP WITH TIME ZONE, "estimated_ready_at" TIMESTAMP WITH TIME ZONE, "general_note" text, "status" character varying(16) NOT NULL, "printed_count" integer NOT NULL DEFAULT '0', "version" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_kitchen_tickets" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "kitchen_tickets_business_created_idx" ON "kitchen_tickets" ("business_uuid", "created_at", "uuid") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "kitchen_tickets_business_version_key" ON "kitchen_tickets" ("business_uuid", "version") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "kitchen_tickets_order_station_kind_key" ON "kitchen_tickets" ("order_uuid", "station", "kind") `,
    );
    await queryRunner.query(
      `CREATE TABLE "kitchen_ticket_lines" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "ticket_uuid" uuid NOT NULL, "position" integer NOT NULL, "order_line_uuid" uuid NOT NULL, "item_uuid" uuid NOT NULL, "title_name" character varying(255), "options" jsonb NOT NULL DEFAULT '[]', "quantity" integer NOT NULL, "item_note" text, "allergens" jsonb NOT NULL DEFAULT '[]', "status" character varying(16) NOT NULL DEFAULT 'queued', CONSTRAINT "PK_kitchen_ticket_lines" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "kitchen_ticket_lines_ticket_position_key" ON "kitchen_ticket_lines" ("ticket_uuid", "position") `,
    );
    await queryRunner.query(
      `ALTER TABLE "kitchen_tickets" ADD CONSTRAINT "FK_kitchen_tickets_order" FOREIGN KEY ("order_uuid") REFERENCES "orders"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "kitchen_ticket_lines" ADD CONSTRAINT "FK_kitchen_ticket_lines_ticket" FOREIGN KEY ("ticket_uuid") REFERENCES "kitchen_tickets"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "kitchen_ticket_lines" DROP CONSTRAINT "FK_kitchen_ticket_lines_ticket"`,
    );
    await queryRunner.query(
      `ALTER TABLE "kitchen_tickets" DROP CONSTRAINT "FK_kitchen_tickets_order"`,
    );
    await queryRunner.query(`DROP INDEX "public"."kitchen_ticket_lines_ticket_position_key"`);
    await queryRunner.query(`DROP TABLE "kitchen_ticket_lines"`);
    await queryRunner.query(`DROP INDEX "public"."kitchen_tickets_order_station_kind_key"`);
    await queryRunner.query(`DROP INDEX "public"."kitchen_tickets_business_version_key"`);
    await queryRunner.query(`DROP INDEX "public"."kitchen_tickets_business_created_idx"`);
    await queryRunner.query(`DROP TABLE "kitchen_tickets"`);
  }
}
