import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transaction's last statement may carry its COMMIT in the same round
 * trip. Where that statement holds a write whose outcome the service must
 * look at before committing (a stock take that may refuse a line or cross a
 * threshold), the statement checks in SQL that there is nothing to look at,
 * through this function: it answers true, or raises SQLSTATE SV001, which
 * fails the statement so that the COMMIT behind it is skipped and the
 * transaction rolls back, to be run again with its COMMIT on its own.
 */
export class ChecksBeforeCommit1795900400000 implements MigrationInterface {
  name = 'ChecksBeforeCommit1795900400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "checks_before_commit"(settled boolean) RETURNS boolean
      LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        IF settled IS NOT TRUE THEN
          RAISE EXCEPTION 'checks are due before this transaction commits' USING ERRCODE = 'SV001';
        END IF;
        RETURN true;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "checks_before_commit"(boolean)`);
  }
}
