import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerBody } from './support/account';
import { ChildService, startChildService } from './support/child-service';
import { pgliteTemplateDir } from './support/database';
import { TEST_API_KEY } from './support/test-app';
import { describeEmbeddedOnly } from './support/server-only';

async function post(
  service: ChildService,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.baseUrl}/public/api/v1/svc${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * The embedded database after `kill -9`: the dead process leaves its lock
 * file and its socket file behind. The next start clears both (the lock names
 * a process that no longer runs) and finds every committed row; a process
 * that still runs keeps the directory to itself.
 */
// Three child services each open the embedded database and run its recovery;
// on a busy machine that takes longer than the default test time.
jest.setTimeout(300_000);

describeEmbeddedOnly('the embedded service after a crash', () => {
  let dataDir: string;
  const started: ChildService[] = [];

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'embedded-crash-'));
    if (existsSync(pgliteTemplateDir())) {
      cpSync(pgliteTemplateDir(), join(dataDir, 'pgdata'), { recursive: true });
    }
  });

  afterAll(async () => {
    for (const service of started) await service.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<ChildService> {
    const service = await startChildService({ DATA_DIR: dataDir });
    started.push(service);
    return service;
  }

  it('starts again on the same data directory with every row, and still refuses a second live process', async () => {
    const first = await start();
    await first.ready();
    const users = [registerBody(), registerBody(), registerBody()];
    for (const user of users) {
      expect((await post(first, '/user/register', user)).status).toBe(201);
    }

    expect(await first.kill('SIGKILL')).toBe('SIGKILL');
    // What a crash leaves behind.
    expect(existsSync(join(dataDir, 'service.lock'))).toBe(true);
    expect(existsSync(join(dataDir, '.s.PGSQL.5432'))).toBe(true);

    const second = await start();
    await second.ready();
    for (const user of users) {
      const login = await post(second, '/user/login', {
        email: user.email,
        password: user.password,
      });
      expect(login.status).toBe(200);
      expect(login.body.data.email).toBe(user.email);
    }

    const third = await start();
    const code = await third.exited;
    expect(code).toBe(1);
    // One line for the operator: the reason and the way out, no stack trace.
    const lines = third.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/in use by process \d+/);
    expect(lines[0]).toMatch(/DATA_DIR/);
    // The refused start did not disturb the live one.
    const again = await post(second, '/user/login', {
      email: users[0].email,
      password: users[0].password,
    });
    expect(again.status).toBe(200);
  });
});
