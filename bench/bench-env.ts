/**
 * The bench's settings (read from the environment once), its log, the build
 * of dist/ when the sources are newer, and the two servers it measures: the
 * service (`node dist/main.js`) and the ceiling (bench/ceiling.ts).
 */
import { ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { forkCompiled, freePort, spawnTracked, waitForOk } from './processes';

export const ROOT = join(__dirname, '..');
export const NS = 'svc';
export const READY_DEADLINE_MS = 120_000;
/**
 * The services' JWT_SECRET, one per bench run: the guest's order tokens are
 * derived from it, so P15 can address orders it inserted itself.
 */
export const SERVICE_SECRET = randomBytes(32).toString('hex');

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not "${raw}"`);
  }
  return value;
}

export const settings = {
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
  /** BENCH_UNBOUNDED=1: the service without the heap flags of `npm start`, to measure what they cost. */
  unbounded: process.env.BENCH_UNBOUNDED === '1',
};

/**
 * The environment and node flags of `npm start` (package.json:
 * `[NAME=value …] node <flags> dist/main.js`), so that the service is
 * measured as the README starts it; none with BENCH_UNBOUNDED=1.
 */
export function startCommand(): { env: Record<string, string>; flags: string[] } {
  if (settings.unbounded) return { env: {}, flags: [] };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const words: string[] = String(pkg.scripts.start).split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/main.js') {
    throw new Error(
      `npm start is not "[NAME=value …] node <flags> dist/main.js": ${pkg.scripts.start}`,
    );
  }
  return { env, flags: words.slice(1, -1) };
}

/** Whether BENCH_ONLY leaves scenario `id` (P1…P6) in the run. */
export const wanted = (id: string) => settings.only.length === 0 || settings.only.includes(id);

export function log(message: string): void {
  console.log(`[bench] ${message}`);
}

/** The whole run may not take longer than this; then everything is stopped. */
export function runDeadlineMs(): number {
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

export function buildIfNeeded(): void {
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

// ---- the servers under load -------------------------------------------------

export interface Service {
  child: ChildProcess;
  base: string;
  startToReadyMs: number;
}

export async function startService(
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
    ...startCommand().env,
    NODE_ENV: 'production',
    PORT: String(port),
    API_NAMESPACE: NS,
    API_KEYS: apiKey,
    JWT_SECRET: SERVICE_SECRET,
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: String(settings.poolSize),
    DATA_DIR: join(workDir, `${label}-data`),
    FRONT_URL: 'http://localhost:3000',
    LOG_LEVEL: 'warn',
    // The load comes from one address; the limits would refuse it by design.
    RATE_LIMIT_ORDER_PER_MINUTE: '100000',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_QUOTE_PER_MINUTE: '100000',
    RATE_LIMIT_QR_SHEET_PER_MINUTE: '100000',
    // P3 priced: fifty simultaneous orders with one known code are fifty tries at once.
    RATE_LIMIT_UNKNOWN_CODE_PER_MINUTE: '100000',
    RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE: '100000',
    RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE: '100000',
    ...extraEnv,
  };
  const startedAt = performance.now();
  const child = spawnTracked(
    process.execPath,
    [...startCommand().flags, ...settings.serviceNodeArgs, join(ROOT, 'dist', 'main.js')],
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

export async function startCeiling(
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
