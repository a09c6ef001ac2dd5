import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUserTokens1795294841058 implements MigrationInterface {
  name = 'CreateUserTokens1795294841058';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "user_tokens" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "user_uuid" uuid NOT NULL,
        "purpose" character varying(32) NOT NULL,
        "token_hash" character varying(64) NOT NULL,
        "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "used_at" TIMESTAMP WITH TIME ZONE,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_user_tokens" PRIMARY KEY ("uuid")
      )`);
    // One live code per user and purpose; a new one replaces the row.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "user_tokens_user_purpose_key" ON "user_tokens" ("user_uuid", "purpose")`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_tokens" ADD CONSTRAINT "FK_user_tokens_user" FOREIGN KEY ("user_uuid") REFERENCES "users"("uuid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "user_tokens"`);
  }
}
