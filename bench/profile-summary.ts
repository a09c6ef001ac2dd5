/**
 * Where the service spent its CPU during one measured period of a bench run.
 *
 *   BENCH_ONLY=P2 BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench
 *   node -r @local/ts-node/register/transpile-only bench/profile-summary.ts /tmp/prof/<file>.cpuprofile "P2 service"
 *
 * The profile (node --cpu-prof) covers the service's whole life: start-up,
 * seeding and every scenario. bench/results.json holds each period's epoch
 * times and when the service exited, which is where the profile ends; only
 * the samples inside the named period are counted. Prints self time by
 * package (or service folder) and by function; `TOP=n` prints n of each
 * (25 and 40 by default).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Results } from './report';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface Profile {
  nodes: Array<{ id: number; callFrame: CallFrame }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

function groupOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return frame.functionName || '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const service = /\/dist\/(.*)\/[^/]+$/.exec(url);
  if (service) return `service:${service[1]}`;
  return url.startsWith('node:') ? url : `other:${url}`;
}

function nameOf(frame: CallFrame): string {
  const where = frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
  return `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
}

function print(title: string, totals: Map<string, number>, all: number, limit: number): void {
  console.log(`\n${title}`);
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    console.log(
      `${((100 * micros) / all).toFixed(1).padStart(6)}% ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`,
    );
  }
}

function main(): void {
  const [file, period, resultsFile = join(__dirname, 'results.json')] = process.argv.slice(2);
  if (!file || !period) {
    console.error('usage: profile-summary.ts <file.cpuprofile> "<scenario name, e.g. P2 service>"');
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
  const pid = Number(/\.(\d+)\.\d+\.\d+\.cpuprofile$/.exec(file)?.[1]);
  const run = results.serviceRuns.find((r) => r.pid === pid);
  if (!run) throw new Error(`no service run with pid ${pid} in ${resultsFile}`);
  const [id, who] = period.split(/ (?=service$|ceiling$)/);
  const scenario = results.scenarios.find((s) => s.id === id || s.title === id);
  const summary = who === 'ceiling' ? scenario?.ceiling : scenario?.service;
  if (!summary) throw new Error(`no period "${period}" in ${resultsFile}`);

  // A load measured in halves counts only its own halves, not the other side's load between them.
  const periods = summary.periods ?? [summary];
  // Profile times are monotonic microseconds; the profile ends when the process exited.
  const toEpochMs = (micros: number) => run.exitedAtMs - (profile.endTime - micros) / 1000;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byGroup = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let at = profile.startTime;
  let inside = 0;
  let idle = 0;
  profile.samples.forEach((nodeId, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const epoch = toEpochMs(at);
    if (!periods.some((p) => epoch >= p.startedAtMs && epoch <= p.finishedAtMs)) return;
    const frame = frames.get(nodeId)!;
    inside += delta;
    if (frame.functionName === '(idle)') idle += delta;
    byGroup.set(groupOf(frame), (byGroup.get(groupOf(frame)) ?? 0) + delta);
    byFunction.set(nameOf(frame), (byFunction.get(nameOf(frame)) ?? 0) + delta);
  });
  const busyMs = (inside - idle) / 1000;
  console.log(
    `${period}: ${(inside / 1e6).toFixed(1)} s sampled, ${(busyMs / 1000).toFixed(1)} s busy, ` +
      `${summary.completed} requests: ${(busyMs / summary.completed).toFixed(2)} ms of the ` +
      `service's main thread per request`,
  );
  print('self time by package', byGroup, inside, Number(process.env.TOP ?? 25));
  print('self time by function', byFunction, inside, Number(process.env.TOP ?? 40));
}

main();
