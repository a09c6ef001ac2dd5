/**
 * Migrates the test database template named by the environment (DATA_DIR
 * for the embedded database, DATABASE_URL for a server), as the service
 * migrates at its start. Run once per test run by global-setup.ts in a
 * process of its own: the migrations are TypeScript sources, loaded here by
 * ts-node.
 */
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/data-source';

async function main(): Promise<void> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...process.env });
  const database = await openDatabase(config, { runMigrations: true });
  await database.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`The test database template was not migrated: ${String(error)}\n`);
  process.exit(1);
});
