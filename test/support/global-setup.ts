import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { EmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { pgliteTemplateDir, serverUrl } from './database';

/** Says up front which tests this run skips, why, and how to run them. */
function announceSkips(): void {
  const notes = serverUrl()
    ? [
        'Tests on the PostgreSQL server of TEST_DATABASE_URL: the tests of the embedded ' +
          "database's worker dying are skipped; run `npm test` without TEST_DATABASE_URL for them.",
      ]
    : [
        'Tests on the embedded database: the tests that need two service processes on one ' +
          'PostgreSQL server (storefront cache, guest orders, order streams, outbox, rate limits, webhooks) are skipped; run ' +
          'them with TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm test ' +
          '(each test file creates and drops a database of its own there).',
      ];
  const browser = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(browser)) {
    notes.push(
      `No browser at ${browser}: the Swagger UI browser test ` +
        (process.env.CI === 'true' ? 'fails, as CI=true requires it; ' : 'is skipped; ') +
        'apt-get install -y chromium (or set CHROMIUM_PATH) to run it.',
    );
  }
  process.stdout.write(`\n${notes.map((note) => `Note: ${note}`).join('\n')}\n`);
}

/** Embedded runs: initdb once into a template that every test file copies. */
export default async function globalSetup(): Promise<void> {
  announceSkips();
  if (serverUrl()) return;
  const template = pgliteTemplateDir();
  if (existsSync(template) && readdirSync(template).length > 0) return;
  const building = `${template}.${process.pid}`;
  mkdirSync(building, { recursive: true });
  const embedded = new EmbeddedPostgres(building);
  await embedded.start();
  await embedded.stop();
  rmSync(template, { recursive: true, force: true });
  renameSync(`${building}/pgdata`, template);
  rmSync(building, { recursive: true, force: true });
}
