import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import {
  filled,
  pgliteMigratedTemplateDir,
  pgliteTemplateDir,
  serverTemplateName,
  serverUrl,
} from './database';

const ROOT = resolve(__dirname, '..', '..');
/** Held while one test run looks for (or makes) the server's template, so two runs never make it at once. */
const SERVER_TEMPLATE_LOCK = 7_305_114_001;

/** Says up front which tests this run skips, why, and how to run them. */
function announceSkips(): void {
  const notes = serverUrl()
    ? [
        'Tests on the PostgreSQL server of TEST_DATABASE_URL: the tests of the embedded ' +
          'database itself (its data directory, its lock, a crash, its worker dying) are skipped; ' +
          'run `npm test` without TEST_DATABASE_URL for them.',
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

/** Applies every migration to the database `env` names, in a process of its own (see migrate-template.ts). */
function migrate(env: Record<string, string>): void {
  const { DATABASE_URL: _url, TEST_DATABASE_URL: _test, ...inherited } = process.env;
  execFileSync(
    process.execPath,
    ['-r', '@local/ts-node/register/transpile-only', 'test/support/migrate-template.ts'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...inherited, NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), ...env },
    },
  );
}

/** Moves a finished `building` directory to `target`, unless a run beside this one got there first. */
function publish(building: string, target: string): void {
  try {
    // Replaces an empty directory; fails on a filled one.
    renameSync(building, target);
  } catch (error) {
    if (!filled(target)) throw error;
    rmSync(building, { recursive: true, force: true });
  }
}

/** Embedded runs: initdb once into a template, then migrate a copy of it once; every test file copies that. */
async function embeddedTemplates(): Promise<void> {
  const template = pgliteTemplateDir();
  if (!filled(template)) {
    const building = `${template}.${process.pid}`;
    mkdirSync(building, { recursive: true });
    const embedded = new EmbeddedPostgres(building);
    await embedded.start();
    await embedded.stop();
    publish(join(building, 'pgdata'), template);
    rmSync(building, { recursive: true, force: true });
  }
  const migrated = pgliteMigratedTemplateDir();
  if (filled(migrated)) return;
  const building = `${migrated}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  cpSync(template, join(building, 'pgdata'), { recursive: true });
  migrate({ DATA_DIR: building });
  publish(join(building, 'pgdata'), migrated);
  rmSync(building, { recursive: true, force: true });
  // Templates of migrations that have since changed.
  const stale = `${basename(template)}-migrated-`;
  for (const name of readdirSync(dirname(template))) {
    const path = join(dirname(template), name);
    if (name.startsWith(stale) && path !== migrated && !name.includes('.')) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

/** Server runs: a migrated database every test file's database is created from (CREATE DATABASE … TEMPLATE). */
async function serverTemplate(url: string): Promise<void> {
  const name = serverTemplateName();
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [SERVER_TEMPLATE_LOCK]);
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, 'svc_test_template_')`,
    );
    for (const { datname } of rows) {
      if (datname === name) continue;
      // A template of migrations that have since changed, or one left half made.
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
    }
    if (rows.some((row) => row.datname === name)) return;
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
    await admin.query(`CREATE DATABASE "${building}"`);
    const target = new URL(url);
    target.pathname = `/${building}`;
    migrate({ DATABASE_URL: target.toString() });
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } finally {
    await admin
      .query('SELECT pg_advisory_unlock($1)', [SERVER_TEMPLATE_LOCK])
      .catch(() => undefined);
    await admin.end();
  }
}

export default async function globalSetup(): Promise<void> {
  announceSkips();
  const url = serverUrl();
  if (url) await serverTemplate(url);
  else await embeddedTemplates();
}
