import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataDirLockedError } from '../src/database/embedded/data-dir-lock';
import { EmbeddedConnection, EmbeddedPostgres } from '../src/database/embedded/embedded-postgres';
import { pgliteTemplateDir } from './support/database';
import { ProbeModule } from './support/probe.module';
import { expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { startTestApp } from './support/test-app';
import { describeEmbeddedOnly } from './support/server-only';

async function query(
  connection: EmbeddedConnection,
  sql: string,
): Promise<Array<Record<string, unknown>>> {
  const client = new Client({
    host: connection.host,
    port: connection.port,
    user: connection.user,
    database: connection.database,
  });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describeEmbeddedOnly('embedded PostgreSQL (PGlite)', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'embedded-'));
    if (existsSync(pgliteTemplateDir()))
      cpSync(pgliteTemplateDir(), join(dataDir, 'pgdata'), { recursive: true });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps its data across a stop and a start', async () => {
    const first = new EmbeddedPostgres(dataDir);
    const connection = await first.start();
    await query(
      connection,
      "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')",
    );
    await first.stop();

    const second = new EmbeddedPostgres(dataDir);
    try {
      expect(await query(await second.start(), 'SELECT value FROM kept')).toEqual([
        { value: 'still here' },
      ]);
    } finally {
      await second.stop();
    }
  });

  it('refuses a second process on the same data directory, and frees it on stop', async () => {
    const holder = new EmbeddedPostgres(dataDir);
    await holder.start();
    // The lock names a live process other than this one.
    writeFileSync(
      join(dataDir, 'service.lock'),
      JSON.stringify({ pid: process.ppid, host: hostname() }),
    );
    await expect(new EmbeddedPostgres(dataDir).start()).rejects.toThrow(DataDirLockedError);
    await expect(new EmbeddedPostgres(dataDir).start()).rejects.toThrow(/in use by process/);
    await holder.stop();
    expect(existsSync(join(dataDir, 'service.lock'))).toBe(false);
  });

  it('takes over a lock left by a process that is gone', async () => {
    writeFileSync(
      join(dataDir, 'service.lock'),
      JSON.stringify({ pid: 2 ** 22 + 7, host: hostname() }),
    );
    const embedded = new EmbeddedPostgres(dataDir);
    await embedded.start();
    await embedded.stop();
  });
});

describe('graceful shutdown', () => {
  it('finishes an in-flight request before closing the database', async () => {
    const t = await startTestApp({}, { extraModules: [ProbeModule] });
    const inFlight = t.http.get(`${t.core}/probe/slow`).query({ ms: 400 }).set(apiHeaders(t));
    const answered = inFlight.then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await t.close();
    expect(expectOk(await answered)).toEqual({ waited: 400 });
    expect(t.dataSource.isInitialized).toBe(false);
  });
});
