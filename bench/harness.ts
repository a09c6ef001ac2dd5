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
 * 5. runs P2 on the seeded tables before any ANALYZE, analyzes, then runs P1
 *    storefront, P2 list, P3 order placement against both, conditional P1 and
 *    P2 (If-None-Match → 304), P4 login, and P5 card orders (fake Paystack in
 *    this process) beside P3; checks stored orders against 201 answers;
 * 6. seeds P6's long tail (2000 businesses, one 60-item menu each) straight
 *    into the database and reads them at random with the cache off;
 * 7. restarts the service with the default storefront cache for one more P1,
 *    and P6 again beside one hot 60-item storefront;
 * 8. starts a service that sends its mail to a local SMTP server (smtp-server
 *    in this process) and times P18, a backlog of due mails drained;
 * 9. prints the table and writes bench/results.json.
 *
 * Every child is stopped on the way out (also on failure and on Ctrl-C),
 * every wait has a deadline, and traffic only goes to 127.0.0.1.
 *
 * The scenarios are the rows of bench/scenarios.ts; settings, build and the
 * two servers are in bench/bench-env.ts, the bench's queries in bench/bench-db.ts,
 * one phase's walk over the rows in bench/run-phase.ts.
 *
 * Environment: DATABASE_URL (server to use), BENCH_DURATION, BENCH_WARMUP
 * (seconds), BENCH_CONNECTIONS, DATABASE_POOL_SIZE (service and ceiling),
 * BENCH_ONLY (e.g. "P1,P3,P6": run only these), BENCH_SERVICE_NODE_ARGS (extra
 * node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { databaseUrl, postgresVersion, withAdmin } from './bench-db';
import {
  buildIfNeeded,
  log,
  NS,
  READY_DEADLINE_MS,
  ROOT,
  runDeadlineMs,
  settings,
  startCeiling,
  startCommand,
  startService,
  wanted,
} from './bench-env';
import {
  forkTypeScript,
  peakRssMiB,
  killAllChildrenNow,
  stopAllChildren,
  stopChild,
  waitForMessage,
} from './processes';
import { judge, renderTable, Results, ServiceRun } from './report';
import { SCENARIOS } from './scenarios';
import { FakePaystack } from '../test/support/fake-paystack';
import { SmtpSink } from '../test/support/smtp-sink';
import { seed } from './seed';
import { RunState, runPhase } from './run-phase';

async function run(workDir: string, dbName: string): Promise<Results> {
  const loadAverageAtStart = loadavg()[0];
  const dbUrl = databaseUrl(settings.adminUrl, dbName);
  const apiKey = `bench-${randomBytes(16).toString('hex')}`;
  const serviceRuns: ServiceRun[] = [];
  // P5's and P15's Paystack: on loopback, answering at once, keeping no record of the calls.
  const paystack = wanted('P5') || wanted('P15') ? await FakePaystack.start() : undefined;
  if (paystack) paystack.record = false;
  const paystackEnv: Record<string, string> = paystack
    ? { PAYSTACK_SECRET_KEY: paystack.secretKey, PAYSTACK_BASE_URL: paystack.url }
    : {};

  // Storefront cache off: the like-for-like figure against the ceiling, which caches nothing.
  const service = await startService('service', dbUrl, apiKey, workDir, {
    STOREFRONT_CACHE_TTL_MS: '0',
    ...paystackEnv,
  });
  log('seeding through the API');
  const seeded = await seed(service.base, NS, apiKey);
  log(`seeded in ${seeded.seconds.toFixed(1)} s`);
  const ceiling = await startCeiling(dbUrl, workDir);
  const loader = forkTypeScript('load.ts', { cwd: ROOT });
  await waitForMessage(loader, READY_DEADLINE_MS);
  const state: RunState = {
    dbUrl,
    apiKey,
    seeded,
    loader,
    service,
    ceiling,
    measured: new Map(),
    scenarios: [],
    checks: {},
  };

  const peak = await runPhase('cache off', state);
  await stopChild(service.child);
  serviceRuns.push({
    label: 'service (storefront cache off)',
    pid: service.child.pid,
    exitedAtMs: Date.now(),
    startToReadyMs: service.startToReadyMs,
    peakRssMiB: peak,
  });

  if (SCENARIOS.some((row) => wanted(row.only) && row.phase === 'default cache')) {
    state.service = await startService('service-cached', dbUrl, apiKey, workDir, {});
    const cachedPeak = await runPhase('default cache', state);
    await stopChild(state.service.child);
    serviceRuns.push({
      label: 'service (default storefront cache)',
      pid: state.service.child.pid,
      exitedAtMs: Date.now(),
      startToReadyMs: state.service.startToReadyMs,
      peakRssMiB: cachedPeak,
    });
  }
  if (SCENARIOS.some((row) => wanted(row.only) && row.phase === 'smtp relay')) {
    serviceRuns.push(await runSmtpRelayPhase(state, workDir));
  }
  await stopChild(ceiling.child);
  await stopChild(loader);
  await paystack?.close();

  const { scenarios } = state;
  const started = startCommand();
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
      serviceEnv: started.env,
      serviceNodeFlags: started.flags,
      unbounded: settings.unbounded,
    },
    seedSeconds: seeded.seconds,
    serviceRuns,
    scenarios,
    orderCheck: state.checks.orderCheck,
    cardOrderCheck: state.checks.cardOrderCheck,
    targets: judge(scenarios, serviceRuns),
  };
}

/**
 * P18's service: the same database, its mail sent to the bench's SMTP server
 * (smtp-server on loopback, as the tests use) instead of the log.
 */
async function runSmtpRelayPhase(state: RunState, workDir: string): Promise<ServiceRun> {
  const smtp = await SmtpSink.start({ keepBodies: false });
  try {
    state.smtp = smtp;
    state.service = await startService('service-smtp', state.dbUrl, state.apiKey, workDir, {
      SMTP_URL: smtp.url(),
      MAIL_FROM: 'Menu Bench <no-reply@bench.example>',
    });
    await runPhase('smtp relay', state);
    // After the drain: P18 is this run's only row.
    const peak = peakRssMiB(state.service.child.pid);
    await stopChild(state.service.child);
    return {
      label: 'service (mail to the bench SMTP server)',
      pid: state.service.child.pid,
      exitedAtMs: Date.now(),
      startToReadyMs: state.service.startToReadyMs,
      peakRssMiB: peak,
    };
  } finally {
    state.smtp = undefined;
    await smtp.close();
  }
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
