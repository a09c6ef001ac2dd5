import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  FOLD_FUNCTION,
  LINES_TRIGGER,
  ORDER_DELETED_TRIGGER,
  ORDERS_TRIGGER,
  REBUILD_FUNCTION,
  ROLLUPS,
  salesMeasureTypes,
  TRUNCATED_TRIGGER,
} from './sql/order-report-rollups';

/*
 * Report rollups: what the sales and items reports sum, kept per business
 * and per 15-minute UTC slot or UTC day by the database itself, so a year's
 * report reads a few tens of thousands of rows instead of every order.
 *
 * - report_sales_slots (business, 15-minute UTC slot): order counts by
 *   outcome (sale, open, lost) and the sales' money. Every time zone in use
 *   today has offsets that are whole multiples of 15 minutes and changes
 *   them on 15-minute boundaries, so every local hour, day, weekday and
 *   month is a set of whole slots; the report checks this for the period
 *   and its zone, and reads the orders themselves when it does not hold.
 * - report_sales_days (business, UTC day, payment processor, fulfilment
 *   type): the same measures, for the report's breakdowns. Local days do not
 *   fall on UTC days, so the report takes the UTC days wholly inside the
 *   period from here and the two partial days at its edges from the orders.
 *   Both key columns are NOT NULL on orders, so they need no stand-in.
 * - report_item_days (business, UTC day, item, title): units, revenue,
 *   orders and the last placement time of the sales' lines (Delivery
 *   category lines left out). An order counts once per item, under the
 *   title a latest-title pick would take among its lines of that item.
 * - report_option_days (business, UTC day, item, group, option, option
 *   title): units chosen, lines, last placement time.
 *
 * Writers never touch these tables. Statement-level triggers on orders and
 * order_lines append what a statement changed (minus the old contribution,
 * plus the new, only for rows whose counted columns changed) to delta
 * tables without any unique key, so simultaneous placements for one
 * business share no row and no lock, and bulk inserts are covered like
 * single ones. A report first folds its business's deltas into the rollups
 * (report_rollups_fold: DELETE … RETURNING feeding upserts, in key order so
 * two folds never wait on each other in a cycle; a second concurrent fold
 * skips the deltas the first one deleted), then reads them.
 */

export class OrderReportRollups1795760000000 implements MigrationInterface {
  name = 'OrderReportRollups1795760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sales = `"business_uuid" uuid NOT NULL, ${salesMeasureTypes}`;
    await queryRunner.query(`
      CREATE TABLE "report_sales_slots" (${sales}, "slot" timestamptz NOT NULL,
        CONSTRAINT "PK_report_sales_slots" PRIMARY KEY ("business_uuid", "slot"))`);
    await queryRunner.query(`
      CREATE TABLE "report_sales_days" (${sales}, "day" date NOT NULL,
        "payment_processor" character varying(32) NOT NULL,
        "fulfilment_type" character varying(16) NOT NULL,
        CONSTRAINT "PK_report_sales_days"
          PRIMARY KEY ("business_uuid", "day", "payment_processor", "fulfilment_type"))`);
    await queryRunner.query(`
      CREATE TABLE "report_sales_deltas" (${sales}, "slot" timestamptz NOT NULL,
        "payment_processor" character varying(32) NOT NULL,
        "fulfilment_type" character varying(16) NOT NULL)`);
    const items = `"business_uuid" uuid NOT NULL, "day" date NOT NULL, "item_uuid" uuid NOT NULL,
      "title_name" character varying(255), "quantity" bigint NOT NULL DEFAULT 0,
      "revenue" numeric(20,2) NOT NULL DEFAULT 0, "orders" bigint NOT NULL DEFAULT 0,
      "last_at" timestamptz`;
    // stale: it lost a contribution since its last_at was read; removed: this delta takes one away.
    const stale = `"stale" boolean NOT NULL DEFAULT false`;
    const removed = `"removed" boolean NOT NULL DEFAULT false`;
    await queryRunner.query(`CREATE TABLE "report_item_days" (${items}, ${stale})`);
    await queryRunner.query(`CREATE TABLE "report_item_deltas" (${items}, ${removed})`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "report_item_days_key" ON "report_item_days"
         ("business_uuid", "day", "item_uuid", "title_name") NULLS NOT DISTINCT`,
    );
    const options = `"business_uuid" uuid NOT NULL, "day" date NOT NULL, "item_uuid" uuid NOT NULL,
      "group" text, "option" text, "option_title" text, "count" bigint NOT NULL DEFAULT 0,
      "lines" bigint NOT NULL DEFAULT 0, "last_at" timestamptz`;
    await queryRunner.query(`CREATE TABLE "report_option_days" (${options}, ${stale})`);
    await queryRunner.query(`CREATE TABLE "report_option_deltas" (${options}, ${removed})`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "report_option_days_key" ON "report_option_days"
         ("business_uuid", "day", "item_uuid", "group", "option", "option_title") NULLS NOT DISTINCT`,
    );
    for (const table of ['report_item_days', 'report_option_days']) {
      await queryRunner.query(
        `CREATE INDEX "${table}_stale_idx" ON "${table}" ("business_uuid") WHERE "stale"`,
      );
    }
    // The fold deletes one business's deltas: an index, not a scan of every business's.
    for (const table of ['report_sales_deltas', 'report_item_deltas', 'report_option_deltas']) {
      await queryRunner.query(
        `CREATE INDEX "${table}_business_idx" ON "${table}" ("business_uuid")`,
      );
    }

    await queryRunner.query(FOLD_FUNCTION);
    await queryRunner.query(REBUILD_FUNCTION);
    await queryRunner.query(ORDERS_TRIGGER);
    await queryRunner.query(ORDER_DELETED_TRIGGER);
    await queryRunner.query(LINES_TRIGGER);
    await queryRunner.query(TRUNCATED_TRIGGER);
    for (const [table, fn] of [
      ['orders', 'report_orders_changed'],
      ['order_lines', 'report_lines_changed'],
    ]) {
      await queryRunner.query(`CREATE TRIGGER "${table}_report_insert" AFTER INSERT ON "${table}"
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
      await queryRunner.query(`CREATE TRIGGER "${table}_report_update" AFTER UPDATE ON "${table}"
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
      await queryRunner.query(`CREATE TRIGGER "${table}_report_delete" AFTER DELETE ON "${table}"
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
      await queryRunner.query(`CREATE TRIGGER "${table}_report_truncate" AFTER TRUNCATE ON "${table}"
        FOR EACH STATEMENT EXECUTE FUNCTION report_orders_truncated()`);
    }
    await queryRunner.query(`CREATE TRIGGER "orders_report_deleted" BEFORE DELETE ON "orders"
      FOR EACH ROW EXECUTE FUNCTION report_order_deleted()`);

    // The orders placed so far.
    await queryRunner.query(`SELECT report_rollups_rebuild(NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "orders_report_deleted" ON "orders"`);
    for (const table of ['orders', 'order_lines']) {
      for (const event of ['insert', 'update', 'delete', 'truncate']) {
        await queryRunner.query(`DROP TRIGGER "${table}_report_${event}" ON "${table}"`);
      }
    }
    for (const fn of [
      'report_orders_truncated',
      'report_lines_changed',
      'report_order_deleted',
      'report_orders_changed',
      'report_rollups_rebuild',
      'report_rollups_fold',
    ]) {
      await queryRunner.query(`DROP FUNCTION ${fn}`);
    }
    for (const table of [...ROLLUPS].reverse()) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
