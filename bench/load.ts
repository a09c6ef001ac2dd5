/**
 * The load generator: a child process of its own, so that its work is not
 * counted to the harness. It takes one scenario at a time over IPC, runs
 * autocannon for the warm-up and then for the measured period, and answers
 * with both summaries.
 *
 * With `idempotencyKeys` every request carries a fresh Idempotency-Key. The
 * requests that are still in flight when a period ends are cut off by the
 * load generator, but the service finishes them; so they are sent once more
 * afterwards with the same key and body, as a client retrying would, and
 * their answers are counted too. Then every stored order has exactly one
 * counted 201 (a replayed key answers the first order), which the harness
 * checks against the database.
 */
import autocannon from 'autocannon';
import { request } from 'node:http';
// autocannon's queue of requests in flight on one connection; no types ship for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PipelinedRequestsQueue = require('autocannon/lib/pipelinedRequestsQueue') as {
  prototype: { addBody(data: Buffer): void };
};
import { cpuBetween, cpuSnapshot } from './cpu-use';
import { LoadSpec, LoadAnswer, LoadSummary, RetrySummary } from './types';

/**
 * autocannon appends every chunk of every answer's body to a string
 * (`req.body += chunk`), decoding it as UTF-8, for options (`expectBody`,
 * `verifyBody`, a body passed to `onResponse`) the bench does not use. That
 * decoding was the load generator's largest cost on the large storefronts,
 * and V8 decodes text with accents several times slower than ASCII: bare
 * `node:http` writing the 1000-item storefront in French from memory
 * answered 0.48 × the same in English at 12 % more bytes, the load generator
 * measuring itself. The bench reads no body, so none is decoded; the bytes
 * are still counted (`throughput`) and every answer still read to its end.
 */
PipelinedRequestsQueue.prototype.addBody = () => undefined;

const RETRY_TIMEOUT_MS = 30_000;
const RETRY_CONCURRENCY = 10;

type AutocannonResult = autocannon.Result;

function summarise(result: AutocannonResult): LoadSummary {
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(
    (result as unknown as { statusCodeStats?: Record<string, { count: number }> })
      .statusCodeStats ?? {},
  )) {
    statusCodes[code] = stats.count;
  }
  return {
    requestsPerSecond: result.requests.average,
    completed: result.requests.total,
    durationSeconds: result.duration,
    p50Ms: result.latency.p50,
    p90Ms: result.latency.p90,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    bytesPerSecond: result.throughput.average,
    startedAtMs: new Date(result.start).getTime(),
    finishedAtMs: new Date(result.finish).getTime(),
  };
}

interface KeyTracker {
  /** Sent and not yet answered: key → body. */
  pending: Map<string, string>;
  next: number;
}

function runOnce(
  spec: LoadSpec,
  durationSeconds: number,
  tracker: KeyTracker,
): Promise<AutocannonResult> {
  const url = new URL(spec.url);
  if (url.hostname !== '127.0.0.1') throw new Error('load only ever goes to 127.0.0.1');
  const bodies = spec.bodies ?? [];
  const requestOptions: autocannon.Request = {
    method: spec.method,
    path: `${url.pathname}${url.search}`,
    headers: spec.headers,
    body: spec.body,
  };
  const paths = spec.paths ?? [];
  if (paths.length > 0 && spec.pathsInTurn) {
    // The counter is the tracker's, so the measured period goes on where the warm-up stopped.
    requestOptions.setupRequest = (req) => ({ ...req, path: paths[tracker.next++ % paths.length] });
  } else if (paths.length > 0) {
    requestOptions.setupRequest = (req) => ({
      ...req,
      path: paths[Math.floor(Math.random() * paths.length)],
    });
  }
  if (spec.idempotencyKeys) {
    requestOptions.setupRequest = (req, context) => {
      const n = tracker.next++;
      const key = `${spec.keyPrefix}-${n}`;
      const body = bodies[n % bodies.length];
      tracker.pending.set(key, body);
      (context as Record<string, unknown>).key = key;
      return { ...req, headers: { ...req.headers, 'idempotency-key': key }, body };
    };
    requestOptions.onResponse = (_status, _body, context) => {
      tracker.pending.delete((context as Record<string, unknown>).key as string);
    };
  }
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url.protocol}//${url.host}`,
        connections: spec.connections,
        duration: durationSeconds,
        timeout: 10,
        requests: [requestOptions],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** One request sent again with its key and body; its status, or 0 when it failed. */
function retry(spec: LoadSpec, key: string, body: string): Promise<number> {
  const url = new URL(spec.url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: spec.method,
        headers: { ...spec.headers, 'idempotency-key': key },
        timeout: RETRY_TIMEOUT_MS,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function retryCutOff(spec: LoadSpec, tracker: KeyTracker): Promise<RetrySummary> {
  const work = [...tracker.pending.entries()];
  tracker.pending.clear();
  const statusCodes: Record<string, number> = {};
  let index = 0;
  const worker = async () => {
    while (index < work.length) {
      const [key, body] = work[index++];
      const status = await retry(spec, key, body);
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: RETRY_CONCURRENCY }, worker));
  return { sent: work.length, statusCodes };
}

async function runSpec(spec: LoadSpec): Promise<LoadAnswer> {
  const tracker: KeyTracker = { pending: new Map(), next: 0 };
  const answer: LoadAnswer = { name: spec.name };
  if (spec.warmupSeconds > 0) {
    answer.warmup = summarise(await runOnce(spec, spec.warmupSeconds, tracker));
  }
  if (spec.idempotencyKeys) answer.warmupRetries = await retryCutOff(spec, tracker);
  const before = cpuSnapshot(spec.serverPid);
  const measured = await runOnce(spec, spec.durationSeconds, tracker);
  const cpu = cpuBetween(before, cpuSnapshot(spec.serverPid));
  answer.measured = { ...summarise(measured), ...(cpu ? { cpu } : {}) };
  if (spec.idempotencyKeys) answer.measuredRetries = await retryCutOff(spec, tracker);
  return answer;
}

process.on('message', (spec: LoadSpec) => {
  runSpec(spec).then(
    (answer) => process.send?.(answer),
    (error: unknown) =>
      process.send?.({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send?.({ ready: true });
