import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
import { OPEN_DATABASE } from '../src/database/database.module';
import { OpenDatabase } from '../src/database/data-source';
import { countUsers, registerBody } from './support/account';
import { createTestDatabase, serverUrl, TestDatabase } from './support/database';
import { expectError, expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';
import { TransactionProbeModule, whileInTransaction } from './support/transaction-probe.module';
import { describeEmbeddedOnly } from './support/server-only';
import { TcpProxy } from './support/tcp-proxy';

/** Polls until `check` passes; the suite's timeout bounds it. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await check();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

// R29: never a 5xx for bad input.
describe('a database outage under the running service', () => {
  let t: TestApp;
  let database: TestDatabase | undefined;
  let proxy: TcpProxy | undefined;
  /** Cuts the database off from the service. */
  let cut: () => Promise<void>;
  /** Gives it back. */
  let restore: () => Promise<void>;

  beforeAll(async () => {
    if (serverUrl()) {
      database = await createTestDatabase();
      const url = new URL(database.env.DATABASE_URL);
      proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      await proxy.start();
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      t = await startTestApp({ ...database.env, DATABASE_URL: url.toString() }, { database });
      cut = () => proxy!.stop();
      restore = () => proxy!.start();
    } else {
      t = await startTestApp();
      const embedded = t.app.get<OpenDatabase>(OPEN_DATABASE).embedded!;
      cut = () => embedded.stop();
      restore = async () => {
        await embedded.start();
      };
    }
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await database?.drop();
  });

  const register = (body: Record<string, unknown>) =>
    t.http.post(`${t.core}/user/register`).set(apiHeaders(t)).send(body);
  const list = () =>
    t.http
      .get(`${t.core}/smart-meta-manager/entity/${t.config.namespace}_business`)
      .set(apiHeaders(t));

  it('answers 503 with Retry-After while the database is gone, then recovers without a restart', async () => {
    expectOk(await t.http.get('/health/ready'));
    expectOk(await list());
    const before = await countUsers(t);

    await cut();

    const ready = await t.http.get('/health/ready');
    expectError(ready, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);

    const read = await list();
    expectError(read, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(read.headers['retry-after'])).toBeGreaterThan(0);
    expect(read.headers['x-request-id']).toBeTruthy();

    const refused = registerBody();
    const write = await register(refused);
    expectError(write, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(write.headers['retry-after'])).toBeGreaterThan(0);

    // Still an outage on later requests, not only the first one.
    expectError(await t.http.get('/health/ready'), 503, 'SERVICE_UNAVAILABLE');
    expectError(await list(), 503, 'SERVICE_UNAVAILABLE');
    // Liveness does not need the database.
    expectOk(await t.http.get('/health'));

    await restore();

    await eventually(async () => {
      expectOk(await t.http.get('/health/ready'));
    });
    expectOk(await list());
    expectOk(await register(registerBody()), 201);
    // The request refused during the outage stored nothing.
    expect(await countUsers(t)).toBe(before + 1);
  });
});

describeEmbeddedOnly('the embedded database worker dying under the running service', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('answers 503 while it is gone and is started again by the service itself', async () => {
    expectOk(await t.http.get('/health/ready'));
    const embedded = t.app.get<OpenDatabase>(OPEN_DATABASE).embedded!;
    // The worker thread ends as a crash would: PGlite is not closed, the socket file stays.
    const { worker } = embedded as unknown as { worker: Worker };
    await worker.terminate();

    const during = await t.http
      .get(`${t.core}/smart-meta-manager/entity/${t.config.namespace}_business`)
      .set(apiHeaders(t));
    expectError(during, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);

    await eventually(async () => {
      expectOk(await t.http.get('/health/ready'));
    });
    expectOk(
      await t.http.post(`${t.core}/user/register`).set(apiHeaders(t)).send(registerBody()),
      201,
    );
  });
});

describe('the connection of a transaction in flight dying', () => {
  let t: TestApp;
  /** Cuts the connection of the backend `pid` while its transaction waits. */
  let kill: (pid: number) => Promise<void>;
  /** Gives the database back after the cut, where the cut took it away. */
  let restore: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    t = await startTestApp({}, { extraModules: [TransactionProbeModule] });
    const url = serverUrl();
    if (url) {
      kill = async (pid) => {
        const admin = new Client({ connectionString: url });
        await admin.connect();
        try {
          await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        } finally {
          await admin.end();
        }
      };
    } else {
      // The embedded database has one connection; stopping it is the only cut.
      const embedded = t.app.get<OpenDatabase>(OPEN_DATABASE).embedded!;
      kill = () => embedded.stop();
      restore = async () => {
        await embedded.start();
      };
    }
  });
  afterAll(() => t?.close());

  const probe = (then: string) =>
    t.http.get(`${t.core}/probe/transaction`).query({ then }).set(apiHeaders(t));

  it.each(['query', 'transaction'])(
    'answers 503 with Retry-After, never 500, when the next step is a %s',
    async (then) => {
      expectOk(await probe(then));

      whileInTransaction(kill);
      try {
        const cut = await probe(then);
        expectError(cut, 503, 'SERVICE_UNAVAILABLE');
        expect(Number(cut.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        whileInTransaction(undefined);
        await restore();
      }

      // The pool drops the dead connection: the next request is served.
      await eventually(async () => {
        expectOk(await probe(then));
      });
    },
  );
});
