import { MigrationInterface, QueryRunner } from 'typeorm';
import { LINES_TRIGGER, ORDERS_TRIGGER } from './sql/order-report-rollups';
import { LINES_TRIGGER_PLANNED, ORDERS_TRIGGER_PLANNED } from './sql/report-triggers-planned';

/**
 * The report triggers' statements that read orders or order_lines are
 * planned at each call, for the tables as they stand.
 *
 * A statement written in a PL/pgSQL function is prepared once per database
 * session. One without parameters, as these were, is then run on a plan
 * made at its first run in that session and kept until the session ends or
 * the table is analyzed: plan_cache_mode does not apply to a statement
 * without parameters. A session that placed its first order while orders
 * was small kept a plan that reads every order on each placement, to find
 * the new lines' order: on a database that is not analyzed (the embedded
 * one is never analyzed; a server without autovacuum is not), each
 * placement grew slower with every order stored.
 *
 * Run through EXECUTE, a statement is planned on each run, with the
 * tables' present size. The planning is paid only where a statement runs:
 * the lines of a new order read its order by its key, and the statement
 * that works out the item deltas runs only when that order is a sale. An
 * update of orders reads the lines only for orders that became or stopped
 * being sales, or moved in time.
 */
export class ReportTriggersPlannedPerCall1795900500000 implements MigrationInterface {
  name = 'ReportTriggersPlannedPerCall1795900500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(LINES_TRIGGER_PLANNED);
    await queryRunner.query(ORDERS_TRIGGER_PLANNED);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const replace = (sql: string) => sql.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION');
    await queryRunner.query(replace(LINES_TRIGGER));
    await queryRunner.query(replace(ORDERS_TRIGGER));
  }
}
