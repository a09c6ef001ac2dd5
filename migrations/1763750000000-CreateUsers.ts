import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateUsers1763750000000 implements MigrationInterface {
  name = 'CreateUsers1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "users" (
        "uuid" uuid NOT NULL DEFAULT gen_random_uuid(),
        "email" character varying(320) NOT NULL,
        "name" character varying(200) NOT NULL,
        "username" character varying(100) NOT NULL,
        "password_hash" text NOT NULL,
        "meta_data" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "email_verified_at" TIMESTAMP WITH TIME ZONE,
        "token_version" integer NOT NULL DEFAULT 0,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_users" PRIMARY KEY ("uuid")
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_email_lower_key" ON "users" (lower("email"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_username_lower_key" ON "users" (lower("username"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "users"`);
  }
}
