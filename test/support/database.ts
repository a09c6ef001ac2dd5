import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '..', '..');

/** The PostgreSQL server the tests use, or undefined for the embedded database. */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/** The PGlite version, so an upgrade makes new templates. */
function pgliteKey(): string {
  const version = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ).version;
  return createHash('sha256').update(String(version)).digest('hex').slice(0, 12);
}

/** A digest of the migrations (names and text), so a template made before one changed is not used. */
export function migrationsKey(): string {
  const dir = join(ROOT, 'migrations');
  const hash = createHash('sha256');
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.ts'))
    .sort()) {
    hash.update(name).update(readFileSync(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * An initdb'd PGlite directory shared by the test files (initdb costs ~5 s,
 * a copy ~0.1 s). Keyed by the PGlite version so an upgrade makes a new one.
 */
export function pgliteTemplateDir(): string {
  return join(tmpdir(), `pglite-template-${pgliteKey()}`);
}

/**
 * The same directory with every migration applied: what a test file starts
 * from, so each does not migrate on its own (~2.5 s a file on PGlite).
 */
export function pgliteMigratedTemplateDir(): string {
  return join(tmpdir(), `pglite-template-${pgliteKey()}-migrated-${migrationsKey()}`);
}

/** The server database every test file's database is copied from: every migration applied. */
export function serverTemplateName(): string {
  return `svc_test_template_${migrationsKey()}`;
}

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** Whether `dir` exists and holds anything. */
export function filled(dir: string): boolean {
  return existsSync(dir) && readdirSync(dir).length > 0;
}

/**
 * A database of its own for one test file: a new database on the server, or
 * a new PGlite directory. Migrated already (a copy of the template
 * global-setup.ts made), unless `empty`: then the service's start migrates
 * it, or a test lays down an older schema first.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<TestDatabase> {
  const url = serverUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  if (!url) {
    const migrated = pgliteMigratedTemplateDir();
    const template = !empty && filled(migrated) ? migrated : pgliteTemplateDir();
    // cp copies the template's thousand-odd files with less CPU than fs.cpSync (in a test
    // worker with an app running, about 320 against 430 ms).
    if (filled(template)) execFileSync('cp', ['-R', template, join(dataDir, 'pgdata')]);
    return {
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    const [template] = empty
      ? []
      : (
          await admin.query<{ datname: string }>(
            `SELECT datname FROM pg_database WHERE datname = $1`,
            [serverTemplateName()],
          )
        ).rows;
    await admin.query(
      template
        ? `CREATE DATABASE "${name}" TEMPLATE "${template.datname}"`
        : `CREATE DATABASE "${name}"`,
    );
  } finally {
    await admin.end();
  }
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: own.toString(), DATA_DIR: dataDir },
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
