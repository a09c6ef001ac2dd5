/**
 * `npm run bench`: the hot paths of the service against a bare node:http + pg
 * ceiling, on a fresh database of the PostgreSQL server.
 *
 * 1. builds the service if dist/ is older than the sources;
 * 2. creates bench_<random> on DATABASE_URL's server (dropped at the end);
 * 3. starts `node dist/main.js` in production mode (storefront cache off),
 *    times spawn → /health/ready, and seeds through the API;
 * 4. starts the ceiling (bench/ceiling.ts) and the load generator
 *    (bench/load.ts), each a child process of its own;
 * 5. runs P1 storefront, P2 list, P3 order placement against both, a
 *    conditional P1 (If-None-Match → 304) and P4 login against the service,
 *    and P5 card order placement (each opening a Paystack checkout on a fake
 *    Paystack in this process that answers at once) beside P3; checks stored
 *    orders against 201 answers;
 * 6. seeds P6's long tail (2000 businesses, one 60-item menu each) straight
 *    into the database and reads them at random with the cache off;
 * 7. restarts the service with the default storefront cache for one more P1,
 *    and P6 again beside one hot 60-item storefront;
 * 8. prints the table and writes bench/results.json.
 *
 * Every child is stopped on the way out (also on failure and on Ctrl-C),
 * every wait has a deadline, and traffic only goes to 127.0.0.1.
 *
 * Environment: DATABASE_URL (server to use), BENCH_DURATION, BENCH_WARMUP
 * (seconds), BENCH_CONNECTIONS, DATABASE_POOL_SIZE (service and ceiling),
 * BENCH_ONLY (e.g. "P1,P3,P6": run only these), BENCH_SERVICE_NODE_ARGS (extra
 * node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  ask,
  forkCompiled,
  forkTypeScript,
  freePort,
  killAllChildrenNow,
  peakRssMiB,
  sleep,
  spawnTracked,
  stopAllChildren,
  stopChild,
  waitForMessage,
  waitForOk,
} from './processes';
import { judge, OrderCheck, renderTable, Results, ScenarioResult, ServiceRun } from './report';
import { FakePaystack } from '../test/support/fake-paystack';
import {
  BIG_MENU_META_KEY,
  BUSINESS_META_KEY,
  chosenOptions,
  LONG_TAIL_BUSINESSES,
  longTailStorefront,
  OPTION_GROUPS,
  primeLongTail,
  seed,
  Seeded,
  SeededItem,
  seedLongTail,
} from './seed';
import { LoadAnswer, LoadSpec } from './types';

const ROOT = join(__dirname, '..');
const NS = 'svc';
const READY_DEADLINE_MS = 120_000;
const DRAIN_DEADLINE_MS = 120_000;

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

const settings = {
  adminUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  durationSeconds: intFromEnv('BENCH_DURATION', 15, 1, 600),
  warmupSeconds: intFromEnv('BENCH_WARMUP', 5, 0, 600),
  connections: intFromEnv('BENCH_CONNECTIONS', 50, 1, 1000),
  poolSize: intFromEnv('DATABASE_POOL_SIZE', 10, 1, 200),
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((id) => id.trim().toUpperCase())
    .filter(Boolean),
  serviceNodeArgs: (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
};

const wanted = (id: string) => settings.only.length === 0 || settings.only.includes(id);

function log(message: string): void {
  console.log(`[bench] ${message}`);
}

/** The whole run may not take longer than this; then everything is stopped. */
function runDeadlineMs(): number {
  const perLoad = (settings.warmupSeconds + settings.durationSeconds + 40) * 1000;
  return 10 * 60_000 + 9 * perLoad;
}

// ---- build ----------------------------------------------------------------

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function buildIfNeeded(): void {
  const main = join(ROOT, 'dist', 'main.js');
  const sources = ['src', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
  const newest = Math.max(...sources.map((source) => newestMtime(join(ROOT, source))));
  if (existsSync(main) && statSync(main).mtimeMs >= newest) {
    log('dist/ is up to date');
    return;
  }
  log('building (npm run build)');
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 10 * 60_000,
  });
  if (result.status !== 0) throw new Error('npm run build failed');
}

// ---- database -------------------------------------------------------------

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    connectionString: settings.adminUrl,
    connectionTimeoutMillis: 10_000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function countOrders(url: string): Promise<number> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return (await client.query('SELECT count(*)::int AS n FROM orders')).rows[0].n;
  } finally {
    await client.end();
  }
}

/**
 * Gives the planner statistics of the seeded rows, as autovacuum does on a
 * live database within a minute of a bulk change. Measured right after a
 * seed, a fresh table has none, and PostgreSQL then plans the list page's
 * parent joins through the wrong index (37 ms instead of 2 ms a page).
 */
async function analyze(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** Waits until the service's outbox worker has sent every due mail, so the next run starts quiet. */
async function waitForOutboxDrain(url: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const deadline = Date.now() + DRAIN_DEADLINE_MS;
    for (;;) {
      const pending: number = (
        await client.query(
          "SELECT count(*)::int AS n FROM outbox WHERE status = 'pending' AND available_at <= now()",
        )
      ).rows[0].n;
      if (pending === 0) return;
      if (Date.now() > deadline) {
        log(`outbox still has ${pending} pending rows after ${DRAIN_DEADLINE_MS} ms; going on`);
        return;
      }
      await sleep(250);
    }
  } finally {
    await client.end();
  }
}

// ---- processes --------------------------------------------------------------

interface Service {
  child: ChildProcess;
  base: string;
  startToReadyMs: number;
}

async function startService(
  label: string,
  dbUrl: string,
  apiKey: string,
  workDir: string,
  extraEnv: Record<string, string>,
): Promise<Service> {
  const port = await freePort();
  const logFile = join(workDir, `${label}.log`);
  const out = createWriteStream(logFile);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    API_NAMESPACE: NS,
    API_KEYS: apiKey,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: String(settings.poolSize),
    DATA_DIR: join(workDir, `${label}-data`),
    FRONT_URL: 'http://localhost:3000',
    LOG_LEVEL: 'warn',
    // The load comes from one address; the limits would refuse it by design.
    RATE_LIMIT_ORDER_PER_MINUTE: '100000',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    ...extraEnv,
  };
  const startedAt = performance.now();
  const child = spawnTracked(
    process.execPath,
    [...settings.serviceNodeArgs, join(ROOT, 'dist', 'main.js')],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const base = `http://127.0.0.1:${port}`;
  try {
    const startToReadyMs = await waitForOk(
      `${base}/health/ready`,
      child,
      startedAt,
      READY_DEADLINE_MS,
    );
    log(`${label}: ready in ${startToReadyMs.toFixed(0)} ms (pid ${child.pid}, log ${logFile})`);
    return { child, base, startToReadyMs };
  } catch (error) {
    log(`${label} did not get ready; its log is ${logFile}`);
    throw error;
  }
}

async function startCeiling(
  dbUrl: string,
  workDir: string,
): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = forkCompiled('ceiling.ts', workDir, {
    cwd: ROOT,
    env: {
      ...process.env,
      CEILING_PORT: String(port),
      CEILING_DATABASE_URL: dbUrl,
      CEILING_POOL_SIZE: String(settings.poolSize),
      CEILING_NAMESPACE: NS,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const ms = await waitForOk(`${base}/health`, child, performance.now(), READY_DEADLINE_MS);
  log(`ceiling: ready in ${ms.toFixed(0)} ms (pid ${child.pid})`);
  return { child, base };
}

// ---- scenarios --------------------------------------------------------------

function orderBodies(seeded: Seeded, paymentProcessor = 'cash'): string[] {
  const items = seeded.smallMenuItems;
  return items.map((_, start) => {
    const lines: Array<{ item: SeededItem; quantity: number }> = [];
    for (let i = 0; i < 5; i++) {
      const item = items[(start + i) % items.length];
      lines.push({ item, quantity: Math.min(item.minimum + (i % 2), item.maximum) });
    }
    const deltaCents = (line: number) =>
      chosenOptions(line).reduce((sum, choice) => {
        const group = OPTION_GROUPS.find((g) => g.key === choice.group)!;
        const option = group.options.find((o) => o.key === choice.option)!;
        return sum + Math.round(Number(option.price_delta) * 100);
      }, 0);
    const cents = lines.reduce(
      (sum, line, i) =>
        sum + (Math.round(Number(line.item.unitPrice) * 100) + deltaCents(i)) * line.quantity,
      0,
    );
    return JSON.stringify({
      menu_uuid: seeded.smallMenuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: paymentProcessor,
      customer_email_address: `guest${start}@example.test`,
      customer_phone_number: '+2348000000000',
      customer_requested_order_email_copy: false,
      general_note: 'No onions, please.',
      delivery_data: { delivery_identifier: '', delivery_address: '' },
      onpremise_data: {
        customer_onpremise_location_type: 'table',
        customer_onpremise_location_number: String(start % 20),
        customer_onpremise_location: `table_${start % 20}`,
      },
      cart_items: lines.map(({ item, quantity }, i) => ({
        uuid: item.uuid,
        quantity,
        item_note: '',
        options: chosenOptions(i),
      })),
    });
  });
}

interface Paths {
  storefront: string;
  list: string;
  order: string;
  login: string;
}

function pathsOf(seeded: Seeded): Paths {
  const core = `/public/api/v1/${NS}`;
  return {
    storefront: `${core}/storefront/${BUSINESS_META_KEY}/menu/${BIG_MENU_META_KEY}`,
    list:
      `${core}/smart-meta-manager/entity/${NS}_business_menu_item?parent_entity_type=${NS}_business_menu` +
      `&parent_entity_uuid=${seeded.bigMenuUuid}&per_page=100&sort_by=extra_data.sort_position&sort_order=asc`,
    order: `/plugins/${NS}/${NS}-init/order`,
    login: `${core}/user/login`,
  };
}

async function load(
  loader: ChildProcess,
  name: string,
  spec: Omit<LoadSpec, 'name' | 'connections' | 'warmupSeconds' | 'durationSeconds' | 'keyPrefix'>,
): Promise<LoadAnswer> {
  log(`${name}: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`);
  const full: LoadSpec = {
    name,
    connections: settings.connections,
    warmupSeconds: settings.warmupSeconds,
    durationSeconds: settings.durationSeconds,
    keyPrefix: `${name.replace(/\W+/g, '-')}-${randomBytes(4).toString('hex')}`,
    ...spec,
  };
  const timeoutMs = (settings.warmupSeconds + settings.durationSeconds) * 1000 + 180_000;
  const answer = await ask<LoadAnswer>(loader, full, timeoutMs);
  const m = answer.measured!;
  log(
    `${name}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ` +
      `errors ${m.errors}, non-2xx ${m.non2xx} ${JSON.stringify(m.statusCodes)}`,
  );
  return answer;
}

/** Orders stored by a placement run against its 201 answers. */
function checkOrders(answer: LoadAnswer, before: number, after: number): OrderCheck {
  const answered = count201(answer);
  const answered201 = answered.warmup + answered.measured + answered.retried;
  return {
    ordersStored: after - before,
    answered201,
    measured201: answered.measured,
    warmup201: answered.warmup,
    retried: [answer.warmupRetries, answer.measuredRetries].filter((r) => r !== undefined),
    equal: after - before === answered201,
  };
}

function count201(answer: LoadAnswer): { warmup: number; measured: number; retried: number } {
  return {
    warmup: answer.warmup?.statusCodes['201'] ?? 0,
    measured: answer.measured?.statusCodes['201'] ?? 0,
    retried:
      (answer.warmupRetries?.statusCodes['201'] ?? 0) +
      (answer.measuredRetries?.statusCodes['201'] ?? 0),
  };
}

// ---- main -------------------------------------------------------------------

async function postgresVersion(): Promise<string> {
  return withAdmin(
    async (client) => (await client.query('SHOW server_version')).rows[0].server_version,
  );
}

async function run(workDir: string, dbName: string): Promise<Results> {
  const loadAverageAtStart = loadavg()[0];
  const dbUrl = databaseUrl(settings.adminUrl, dbName);
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const serviceRuns: ServiceRun[] = [];
  const scenarios: ScenarioResult[] = [];
  let orderCheck: OrderCheck | undefined;
  let cardOrderCheck: OrderCheck | undefined;
  // P5's Paystack: on loopback, answering at once, keeping no record of the calls.
  const paystack = wanted('P5') ? await FakePaystack.start() : undefined;
  if (paystack) paystack.record = false;
  const paystackEnv: Record<string, string> = paystack
    ? { PAYSTACK_SECRET_KEY: paystack.secretKey, PAYSTACK_BASE_URL: paystack.url }
    : {};

  // Storefront cache off: the like-for-like figure against the ceiling, which caches nothing.
  let service = await startService('service', dbUrl, apiKey, workDir, {
    STOREFRONT_CACHE_TTL_MS: '0',
    ...paystackEnv,
  });
  log('seeding through the API');
  const seeded = await seed(service.base, NS, apiKey);
  await analyze(dbUrl);
  log(`seeded in ${seeded.seconds.toFixed(1)} s`);
  const paths = pathsOf(seeded);
  const ceiling = await startCeiling(dbUrl, workDir);
  const loader = forkTypeScript('load.ts', { cwd: ROOT });
  await waitForMessage(loader, READY_DEADLINE_MS);
  const key = { 'x-api-key': apiKey };
  const json = { ...key, 'content-type': 'application/json' };

  if (wanted('P1')) {
    const spec = { method: 'GET' as const, headers: key, idempotencyKeys: false };
    const s = await load(loader, 'P1 service', { ...spec, url: service.base + paths.storefront });
    const c = await load(loader, 'P1 ceiling', { ...spec, url: ceiling.base + paths.storefront });
    scenarios.push({
      id: 'P1',
      title: 'P1 storefront, 1000 items with 2 option groups each (cache off)',
      service: s.measured,
      ceiling: c.measured,
      ratio: s.measured!.requestsPerSecond / c.measured!.requestsPerSecond,
      targetRatio: 3,
      targetP99Ms: 500,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
      ceilingRssAfterMiB: peakRssMiB(ceiling.child.pid),
    });
    // What answering with these bytes costs at all on this machine (see ceiling.ts).
    const f = await load(loader, 'P1 floor', {
      ...spec,
      url: `${ceiling.base}/floor${paths.storefront}`,
    });
    scenarios.push({
      id: 'P1 floor',
      title: 'P1 floor: the same answer written from memory by bare node:http',
      ceiling: f.measured,
      ceilingLabel: 'floor',
    });
    // A client that holds the current answer: If-None-Match with its ETag, answered 304.
    const etag = (
      await fetch(service.base + paths.storefront, { headers: key, method: 'HEAD' })
    ).headers.get('etag');
    if (!etag) throw new Error('the storefront answer has no ETag');
    const n = await load(loader, 'P1 service, If-None-Match', {
      ...spec,
      headers: { ...key, 'if-none-match': etag },
      url: service.base + paths.storefront,
    });
    scenarios.push({
      id: 'P1 conditional',
      title: 'P1 storefront, If-None-Match with the current ETag (304, cache off)',
      service: n.measured,
      expectedStatus: 304,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
    });
  }
  if (wanted('P2')) {
    const spec = { method: 'GET' as const, headers: key, idempotencyKeys: false };
    const s = await load(loader, 'P2 service', { ...spec, url: service.base + paths.list });
    const c = await load(loader, 'P2 ceiling', { ...spec, url: ceiling.base + paths.list });
    scenarios.push({
      id: 'P2',
      title: 'P2 list, 100 per page by sort_position',
      service: s.measured,
      ceiling: c.measured,
      ratio: s.measured!.requestsPerSecond / c.measured!.requestsPerSecond,
      targetRatio: 2,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
      ceilingRssAfterMiB: peakRssMiB(ceiling.child.pid),
    });
  }
  if (wanted('P3')) {
    const spec = {
      method: 'POST' as const,
      headers: json,
      bodies: orderBodies(seeded),
      idempotencyKeys: true,
    };
    // The ceiling first, and its mails sent by the service's outbox worker
    // before the service's own run starts, so neither run pays for the other.
    const c = await load(loader, 'P3 ceiling', { ...spec, url: ceiling.base + paths.order });
    await waitForOutboxDrain(dbUrl);
    const before = await countOrders(dbUrl);
    const s = await load(loader, 'P3 service', { ...spec, url: service.base + paths.order });
    const after = await countOrders(dbUrl);
    orderCheck = checkOrders(s, before, after);
    log(
      `P3: orders stored by the service run ${orderCheck.ordersStored}, 201 answers ${orderCheck.answered201}` +
        ` → ${orderCheck.equal ? 'equal' : 'NOT EQUAL'}`,
    );
    scenarios.push({
      id: 'P3',
      title: 'P3 order, 5 lines with options, unique Idempotency-Key',
      service: s.measured,
      ceiling: c.measured,
      ratio: s.measured!.requestsPerSecond / c.measured!.requestsPerSecond,
      targetRatio: 1,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
      ceilingRssAfterMiB: peakRssMiB(ceiling.child.pid),
    });
    await waitForOutboxDrain(dbUrl);
  }
  // The budget covers P1–P3: VmHWM only grows, so it is read before P4 (argon2id
  // takes tens of MB per hash in flight) and P6 (thousands of storefronts).
  const peak = peakRssMiB(service.child.pid);
  if (wanted('P5') && paystack) {
    const before = await countOrders(dbUrl);
    const s = await load(loader, 'P5 service', {
      method: 'POST',
      headers: json,
      bodies: orderBodies(seeded, 'paystack'),
      idempotencyKeys: true,
      url: service.base + paths.order,
    });
    cardOrderCheck = checkOrders(s, before, await countOrders(dbUrl));
    log(
      `P5: orders stored ${cardOrderCheck.ordersStored}, 201 answers ${cardOrderCheck.answered201}` +
        ` → ${cardOrderCheck.equal ? 'equal' : 'NOT EQUAL'}`,
    );
    const cash = scenarios.find((scenario) => scenario.id === 'P3')?.service;
    scenarios.push({
      id: 'P5',
      title: 'P5 card order, 5 lines, opening a Paystack checkout (fake, answers at once)',
      service: s.measured,
      ceiling: cash,
      ceilingLabel: 'P3 service (cash)',
      ratio: cash ? s.measured!.requestsPerSecond / cash.requestsPerSecond : undefined,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
    });
    await waitForOutboxDrain(dbUrl);
  }
  if (wanted('P4')) {
    const s = await load(loader, 'P4 service', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: seeded.ownerEmail, password: seeded.ownerPassword }),
      idempotencyKeys: false,
      url: service.base + paths.login,
    });
    scenarios.push({
      id: 'P4',
      title: 'P4 login (argon2id), reported only',
      service: s.measured,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
    });
  }
  const longTailPaths = Array.from({ length: LONG_TAIL_BUSINESSES }, (_, i) =>
    longTailStorefront(NS, i),
  );
  const browser = { ...key, 'accept-encoding': 'gzip, deflate, br' };
  let longTailOff: LoadAnswer | undefined;
  if (wanted('P6')) {
    log(`P6: seeding ${LONG_TAIL_BUSINESSES} businesses with one menu each`);
    const started = performance.now();
    await seedLongTail(dbUrl, NS, seeded.ownerEmail);
    await analyze(dbUrl);
    log(`P6: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s; reading each once`);
    await primeLongTail(service.base, NS, apiKey);
    longTailOff = await load(loader, 'P6 service, cache off', {
      method: 'GET',
      headers: browser,
      idempotencyKeys: false,
      url: service.base + longTailPaths[0],
      paths: longTailPaths,
    });
  }
  await stopChild(service.child);
  serviceRuns.push({
    label: 'service (storefront cache off)',
    pid: service.child.pid,
    exitedAtMs: Date.now(),
    startToReadyMs: service.startToReadyMs,
    peakRssMiB: peak,
  });

  if (wanted('P1') || wanted('P6')) {
    service = await startService('service-cached', dbUrl, apiKey, workDir, {});
  }
  if (wanted('P1')) {
    const s = await load(loader, 'P1 service, default cache', {
      method: 'GET',
      headers: key,
      idempotencyKeys: false,
      url: service.base + paths.storefront,
    });
    const ceilingP1 = scenarios.find((scenario) => scenario.id === 'P1')?.ceiling;
    scenarios.push({
      id: 'P1 cached',
      title: 'P1 storefront, default cache (2 s)',
      service: s.measured,
      ratio: ceilingP1 ? s.measured!.requestsPerSecond / ceilingP1.requestsPerSecond : undefined,
      targetP99Ms: 50,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
    });
    // The same request as a browser sends it: the other rows ask for no compression.
    const browser = await load(loader, 'P1 service, default cache, gzip', {
      method: 'GET',
      headers: { ...key, 'accept-encoding': 'gzip, deflate, br' },
      idempotencyKeys: false,
      url: service.base + paths.storefront,
    });
    const browserFloor = await load(loader, 'P1 floor, gzip', {
      method: 'GET',
      headers: { ...key, 'accept-encoding': 'gzip, deflate, br' },
      idempotencyKeys: false,
      url: `${ceiling.base}/floor${paths.storefront}`,
    });
    scenarios.push({
      id: 'P1 cached gzip',
      title: 'P1 storefront, default cache, Accept-Encoding: gzip (as browsers send)',
      service: browser.measured,
      ceiling: browserFloor.measured,
      ceilingLabel: 'floor, gzip',
      targetP99Ms: 50,
      serviceRssAfterMiB: peakRssMiB(service.child.pid),
    });
  }
  if (wanted('P1') || wanted('P6')) {
    // P1 with the cache; P6 is reported in its rows.
    const cachedPeak = peakRssMiB(service.child.pid);
    if (wanted('P6')) {
      // One hot 60-item storefront, always in the cache, against reads spread over all of them.
      const hot = await load(loader, 'P6 single hot storefront, default cache', {
        method: 'GET',
        headers: browser,
        idempotencyKeys: false,
        url: service.base + longTailPaths[0],
      });
      const tail = await load(loader, 'P6 service, default cache', {
        method: 'GET',
        headers: browser,
        idempotencyKeys: false,
        url: service.base + longTailPaths[0],
        paths: longTailPaths,
      });
      const hotRate = hot.measured!.requestsPerSecond;
      for (const [answer, cache] of [
        [tail, 'default cache'],
        [longTailOff, 'cache off'],
      ] as const) {
        if (!answer) continue;
        scenarios.push({
          id: cache === 'default cache' ? 'P6' : 'P6 cache off',
          title: `P6 long tail: ${LONG_TAIL_BUSINESSES} storefronts of 60 items at random, ${cache}, gzip`,
          service: answer.measured,
          ceiling: hot.measured,
          ceilingLabel: 'one hot storefront',
          ratio: answer.measured!.requestsPerSecond / hotRate,
          targetRatio: cache === 'default cache' ? 0.8 : undefined,
          ratioOf: 'the single hot storefront',
          serviceRssAfterMiB: peakRssMiB(service.child.pid),
        });
      }
    }
    await stopChild(service.child);
    serviceRuns.push({
      label: 'service (default storefront cache)',
      pid: service.child.pid,
      exitedAtMs: Date.now(),
      startToReadyMs: service.startToReadyMs,
      peakRssMiB: cachedPeak,
    });
  }
  await stopChild(ceiling.child);
  await stopChild(loader);
  await paystack?.close();

  const cpuList = cpus();
  return {
    finishedAt: new Date().toISOString(),
    machine: {
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
      node: process.version,
      postgres: await postgresVersion(),
      platform: `${process.platform} ${process.arch}`,
      loadAverageAtStart,
    },
    settings: {
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.durationSeconds,
      poolSize: settings.poolSize,
    },
    seedSeconds: seeded.seconds,
    serviceRuns,
    scenarios,
    orderCheck,
    cardOrderCheck,
    targets: judge(scenarios, serviceRuns),
  };
}

export async function main(): Promise<void> {
  const dbName = `bench_${randomBytes(6).toString('hex')}`;
  const workDir = mkdtempSync(join(tmpdir(), 'menu-bench-'));
  let created = false;
  let failed = false;

  let stopping = false;
  let cleaning: Promise<void> | undefined;
  // Once only, whoever asks first: the signal handler, the watchdog or the end of the run.
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await stopAllChildren();
      if (created) {
        await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
          .then(() => log(`dropped database ${dbName}`))
          .catch((error: unknown) => log(`could not drop ${dbName}: ${String(error)}`));
      }
      if (!failed) rmSync(workDir, { recursive: true, force: true });
    })());
  const stop = (why: string, code: number) => {
    log(`${why}: stopping`);
    stopping = true;
    failed = true;
    void cleanUp().finally(() => process.exit(code));
  };
  process.on('exit', killAllChildrenNow);
  process.once('SIGINT', () => stop('SIGINT', 130));
  process.once('SIGTERM', () => stop('SIGTERM', 143));
  const watchdog = setTimeout(
    () => stop(`the run took longer than ${runDeadlineMs() / 1000} s`, 1),
    runDeadlineMs(),
  );

  try {
    buildIfNeeded();
    await withAdmin((client) => client.query(`CREATE DATABASE ${dbName}`));
    created = true;
    log(`created database ${dbName}`);
    const results = await run(workDir, dbName);
    const table = renderTable(results);
    const file = join(__dirname, 'results.json');
    writeFileSync(file, `${JSON.stringify({ ...results, table }, null, 2)}\n`);
    console.log(`\n${table}\n`);
    log(`written ${file}`);
    if (
      (results.orderCheck && !results.orderCheck.equal) ||
      (results.cardOrderCheck && !results.cardOrderCheck.equal)
    ) {
      process.exitCode = 1;
    }
  } catch (error) {
    failed = true;
    if (stopping) return;
    console.error(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}`);
    console.error(`[bench] service logs are kept in ${workDir}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}
