import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

const ROOT = resolve(__dirname, '..', '..');

/** The PostgreSQL server the tests use, or undefined for the embedded database. */
export function serverUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;
}

/**
 * An initdb'd PGlite directory shared by the test files (initdb costs ~5 s,
 * a copy ~0.1 s). Keyed by the PGlite version so an upgrade makes a new one.
 */
export function pgliteTemplateDir(): string {
  const version = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ).version;
  const key = createHash('sha256').update(String(version)).digest('hex').slice(0, 12);
  return join(tmpdir(), `pglite-template-${key}`);
}

export interface TestDatabase {
  /** Environment for loadConfig: DATABASE_URL or DATA_DIR. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A database of its own for one test file: a new database on the server, or a new PGlite directory. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  if (!url) {
    const template = pgliteTemplateDir();
    if (existsSync(template) && readdirSync(template).length > 0) {
      cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
    }
    return {
      env: { DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
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
