/**
 * npm run migration:run          apply pending migrations
 * npm run migration:check        fail if the entities differ from the migrated schema
 * npm run migration:generate -- Name   write migrations/<time>-<Name>.ts from that difference
 */
import '../config/load-env-file';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import { openDatabase } from './data-source';
import { embeddedDatabaseExists } from './embedded/embedded-postgres';

async function main(): Promise<void> {
  const [mode = '--run', name] = process.argv.slice(2);
  const config = loadConfig();
  if (!config.databaseUrl && !embeddedDatabaseExists(config.dataDir)) {
    process.stdout.write(
      `Creating the embedded database in ${config.dataDir} (first start: initdb, a few seconds)\n`,
    );
  }
  const db = await openDatabase(config, { runMigrations: true });
  try {
    if (mode === '--run') {
      process.stdout.write('Migrations are up to date.\n');
      return;
    }
    const sql = await db.dataSource.driver.createSchemaBuilder().log();
    if (mode === '--check') {
      if (sql.upQueries.length === 0) {
        process.stdout.write('The entities match the migrations.\n');
        return;
      }
      process.stdout.write('The entities differ from the migrations; a migration would need:\n');
      for (const query of sql.upQueries) process.stdout.write(`  ${query.query};\n`);
      process.exitCode = 1;
      return;
    }
    if (mode === '--generate') {
      if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name))
        throw new Error('Give a PascalCase name: -- AddThing');
      if (sql.upQueries.length === 0) {
        process.stdout.write('Nothing to generate.\n');
        return;
      }
      const stamp = Date.now();
      const q = (s: string) => '`' + s.replace(/`/g, '\\`') + '`';
      const up = sql.upQueries.map((x) => `    await queryRunner.query(${q(x.query)});`).join('\n');
      const down = sql.downQueries
        .reverse()
        .map((x) => `    await queryRunner.query(${q(x.query)});`)
        .join('\n');
      const file = join(resolve(__dirname, '..', '..'), 'migrations', `${stamp}-${name}.ts`);
      writeFileSync(
        file,
        `import { MigrationInterface, QueryRunner } from 'typeorm';\n\nexport class ${name}${stamp} implements MigrationInterface {\n  name = '${name}${stamp}';\n\n  async up(queryRunner: QueryRunner): Promise<void> {\n${up}\n  }\n\n  async down(queryRunner: QueryRunner): Promise<void> {\n${down}\n  }\n}\n`,
      );
      process.stdout.write(`Wrote ${file}\n`);
      return;
    }
    throw new Error(`Unknown mode ${mode}`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(1);
});
