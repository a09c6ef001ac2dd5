/** The benchmark's table, its verdict on the targets, and bench/results.json. */
import { cpuLines } from './cpu-use';
import type { CsvMeasure } from './report-bench';
import type { MailDrainMeasure } from './mail-drain';
import type { StationStreamsMeasure } from './station-streams';
import { LoadAnswer, LoadSummary, RetrySummary } from './types';

/** P18's target: due mails sent a second by one process. */
const MAILS_PER_SECOND = 200;

export interface ScenarioResult {
  id: string;
  title: string;
  service?: LoadSummary;
  ceiling?: LoadSummary;
  /** service requests/s ÷ ceiling requests/s. */
  ratio?: number;
  /** The target ratio, when there is one. */
  targetRatio?: number;
  /** What the ratio is taken against, when not the ceiling. */
  ratioOf?: string;
  /** The load the ratio is taken against (its CPU gives the ratio by cost). */
  ratioAgainst?: LoadSummary;
  /** The row the ratio is taken against, when that row is measured later in the run. */
  ratioPending?: { row: string; side: 'service' | 'ceiling' };
  /** The status every answer should have, when not 2xx (a conditional GET's 304). */
  expectedStatus?: number;
  /** The target p99 in ms, when there is one. */
  targetP99Ms?: number;
  /** The target p50 in ms, when there is one. */
  targetP50Ms?: number;
  /** P8, P16: one download of a CSV, and its targets. */
  csv?: CsvMeasure;
  /** P18: a backlog of due mails sent to the bench's SMTP server. */
  mailDrain?: MailDrainMeasure;
  /** P14: the station streams' deliveries (the row's `service` summarises them). */
  streams?: StationStreamsMeasure;
  targetRowsPerSecond?: number;
  /** In megabytes (10^6 bytes), as the goal is stated; VmRSS is read in MiB. */
  targetRssGrowthMB?: number;
  /** The service's VmHWM right after this scenario (MiB): where the peak was reached. */
  serviceRssAfterMiB?: number | null;
  /** How the ceiling row is named in the table. */
  ceilingLabel?: string;
  /** The ceiling's VmHWM right after this scenario (MiB). */
  ceilingRssAfterMiB?: number | null;
}

export interface OrderCheck {
  ordersStored: number;
  answered201: number;
  measured201: number;
  warmup201: number;
  retried: RetrySummary[];
  equal: boolean;
}

export interface ServiceRun {
  label: string;
  pid: number | undefined;
  /** Epoch ms when the process had exited (a --cpu-prof profile ends there). */
  exitedAtMs: number;
  startToReadyMs: number;
  peakRssMiB: number | null;
}

export interface Results {
  finishedAt: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    node: string;
    postgres: string;
    platform: string;
    /** 1-minute load average when the run started: other work on the machine skews the figures. */
    loadAverageAtStart: number;
  };
  settings: {
    connections: number;
    warmupSeconds: number;
    durationSeconds: number;
    poolSize: number;
    /** The environment `npm start` sets before node (absent in results written before it was recorded). */
    serviceEnv?: Record<string, string>;
    /** The service's node flags: those of `npm start`, or none with BENCH_UNBOUNDED=1. */
    serviceNodeFlags: string[];
    /** BENCH_UNBOUNDED=1: the flags of `npm start` were left out. */
    unbounded: boolean;
  };
  seedSeconds: number;
  serviceRuns: ServiceRun[];
  scenarios: ScenarioResult[];
  orderCheck?: OrderCheck;
  /** The same check for P5, card orders that open a checkout. */
  cardOrderCheck?: OrderCheck;
  targets: Array<{ target: string; met: boolean; detail: string }>;
}

export const RSS_TARGET_MIB = 200;

/** Megabytes (10^6 bytes) in MiB (2^20 bytes), the unit VmRSS is read in. */
function mibOf(megabytes: number): number {
  return (megabytes * 1e6) / 2 ** 20;
}

function fixed(value: number | undefined, digits = 0): string {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

function errorsOf(summary: LoadSummary | undefined): number {
  return summary ? summary.errors : 0;
}

function row(
  title: string,
  who: string,
  summary: LoadSummary | undefined,
  ratio: string,
  rss: number | null | undefined,
): string {
  const rssText = rss === undefined || rss === null ? '' : String(rss);
  if (!summary) return `| ${title} | ${who} | – | – | – | – | – | ${ratio} | ${rssText} |`;
  return `| ${title} | ${who} | ${fixed(summary.requestsPerSecond)} | ${fixed(summary.p50Ms)} | ${fixed(
    summary.p99Ms,
  )} | ${summary.errors} | ${summary.non2xx} | ${ratio} | ${rssText} |`;
}

/** Answers of another status than the scenario expects. */
function unexpected(scenario: ScenarioResult): number {
  const summary = scenario.service;
  if (!summary) return 0;
  if (scenario.expectedStatus === undefined) return summary.non2xx;
  const expected = summary.statusCodes[String(scenario.expectedStatus)] ?? 0;
  return summary.completed - expected;
}

/**
 * Ratios to rows measured later in the run (an unanalyzed row to its
 * analyzed twin), then the table in `order`, whatever order the rows ran in.
 */
export function settleRatios(
  scenarios: ScenarioResult[],
  measuredOf: (ref: { row: string; side: 'service' | 'ceiling' }) => LoadSummary | undefined,
  order: string[],
): void {
  for (const result of scenarios) {
    const to = result.ratioPending && measuredOf(result.ratioPending);
    if (!to || !result.service) continue;
    result.ratio = result.service.requestsPerSecond / to.requestsPerSecond;
    result.ratioAgainst = to;
    result.ratioPending = undefined;
  }
  scenarios.sort((x, y) => order.indexOf(x.id) - order.indexOf(y.id));
}

/** The verdict on each target of the issue that this run measured. */
export function judge(
  scenarios: ScenarioResult[],
  runs: ServiceRun[],
): Array<{ target: string; met: boolean; detail: string }> {
  const verdicts: Array<{ target: string; met: boolean; detail: string }> = [];
  for (const scenario of scenarios) {
    if (scenario.targetRatio !== undefined && scenario.ratio !== undefined) {
      verdicts.push({
        target: `${scenario.id} ≥ ${scenario.targetRatio} × ${scenario.ratioOf ?? 'ceiling'}`,
        met: scenario.ratio >= scenario.targetRatio,
        detail: `${scenario.ratio.toFixed(2)} ×`,
      });
    }
    if (scenario.targetP50Ms !== undefined && scenario.service) {
      verdicts.push({
        target: `${scenario.id} p50 ≤ ${scenario.targetP50Ms} ms`,
        met: scenario.service.completed > 0 && scenario.service.p50Ms <= scenario.targetP50Ms,
        detail: `${scenario.service.p50Ms} ms`,
      });
    }
    if (scenario.csv && scenario.targetRowsPerSecond !== undefined) {
      verdicts.push({
        target: `${scenario.id} ≥ ${scenario.targetRowsPerSecond} rows/s`,
        met: scenario.csv.rowsPerSecond >= scenario.targetRowsPerSecond,
        detail: `${scenario.csv.rowsPerSecond.toFixed(0)} rows/s (${scenario.csv.rows} rows in ${scenario.csv.seconds.toFixed(2)} s)`,
      });
    }
    if (scenario.csv && scenario.targetRssGrowthMB !== undefined) {
      verdicts.push({
        target: `${scenario.id} VmRSS growth ≤ ${scenario.targetRssGrowthMB} MB (${fixed(mibOf(scenario.targetRssGrowthMB), 1)} MiB)`,
        met: scenario.csv.rssGrowthMiB <= mibOf(scenario.targetRssGrowthMB),
        detail: `${scenario.csv.rssGrowthMiB} MiB (${scenario.csv.rssBeforeMiB} → ${scenario.csv.rssPeakMiB})`,
      });
    }
    if (scenario.mailDrain) {
      const drain = scenario.mailDrain;
      verdicts.push({
        target: `${scenario.id} ≥ ${MAILS_PER_SECOND} mails/s`,
        met: drain.unsent === 0 && drain.mailsPerSecond >= MAILS_PER_SECOND,
        detail: `${drain.mailsPerSecond.toFixed(0)} mails/s (${drain.mails - drain.unsent} of ${drain.mails} in ${drain.seconds.toFixed(2)} s)`,
      });
      verdicts.push({
        target: `${scenario.id} every mail reaches the relay once`,
        met: drain.accepted === drain.mails && drain.duplicates === 0,
        detail: `${drain.accepted} accepted, ${drain.duplicates} twice`,
      });
    }
    if (scenario.streams) {
      const streams = scenario.streams;
      verdicts.push({
        target: `${scenario.id} every expected delivery received, once`,
        met:
          streams.expected > 0 &&
          streams.received === streams.expected &&
          streams.duplicates === 0 &&
          streams.streamFailures === 0,
        detail: `${streams.received} of ${streams.expected} (${streams.duplicates} twice, ${streams.streamFailures} streams lost)`,
      });
    }
    if (scenario.targetP99Ms !== undefined && scenario.service) {
      verdicts.push({
        target: `${scenario.id} p99 ≤ ${scenario.targetP99Ms} ms`,
        met: scenario.service.p99Ms <= scenario.targetP99Ms,
        detail: `${scenario.service.p99Ms} ms`,
      });
    }
  }
  const failures = scenarios.reduce((sum, s) => sum + errorsOf(s.service) + unexpected(s), 0);
  verdicts.push({
    target: 'no errors (service)',
    met: failures === 0,
    detail: `${failures} errors and non-2xx`,
  });
  const peak = Math.max(...runs.map((run) => run.peakRssMiB ?? 0));
  verdicts.push({
    target: `peak RSS ≤ ${RSS_TARGET_MIB} MiB`,
    met: peak > 0 && peak <= RSS_TARGET_MIB,
    detail: `${peak} MiB`,
  });
  return verdicts;
}

export function renderTable(results: Results): string {
  const lines: string[] = [];
  const m = results.machine;
  const s = results.settings;
  lines.push(
    `${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB, Node ${m.node}, PostgreSQL ${m.postgres}, ` +
      `load average ${m.loadAverageAtStart.toFixed(1)} at start; ${s.connections} connections, ` +
      `${s.warmupSeconds} s warm-up, ${s.durationSeconds} s measured, pool ${s.poolSize}.`,
  );
  lines.push(
    `Service started as npm start does: ${Object.entries(s.serviceEnv ?? {})
      .map(([name, value]) => `${name}=${value} `)
      .join('')}node ${[...s.serviceNodeFlags, 'dist/main.js'].join(' ')}` +
      `${s.unbounded ? ' (BENCH_UNBOUNDED=1: without the flags of npm start)' : ''}.`,
  );
  lines.push('');
  lines.push(
    '| scenario | server | req/s | p50 ms | p99 ms | errors | non-2xx | service/ceiling | VmHWM after, MiB |',
  );
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const scenario of results.scenarios) {
    const ratio =
      scenario.ratio === undefined
        ? ''
        : `**${scenario.ratio.toFixed(2)}**${
            scenario.targetRatio !== undefined ? ` (target ≥ ${scenario.targetRatio})` : ''
          }`;
    if (scenario.service) {
      lines.push(
        row(scenario.title, 'service', scenario.service, ratio, scenario.serviceRssAfterMiB),
      );
    }
    if (scenario.ceiling) {
      lines.push(
        row(
          scenario.title,
          scenario.ceilingLabel ?? 'ceiling',
          scenario.ceiling,
          '',
          scenario.ceilingRssAfterMiB,
        ),
      );
    }
  }
  lines.push('');
  for (const run of results.serviceRuns) {
    lines.push(
      `- ${run.label}: start to /health/ready ${fixed(run.startToReadyMs)} ms, peak RSS (VmHWM) ${
        run.peakRssMiB ?? '–'
      } MiB`,
    );
  }
  if (results.orderCheck) {
    const check = results.orderCheck;
    const retried = check.retried.reduce((sum, r) => sum + r.sent, 0);
    lines.push(
      `- P3: ${check.ordersStored} orders stored, ${check.answered201} answered 201 ` +
        `(${check.warmup201} warm-up + ${check.measured201} measured + ${
          check.answered201 - check.warmup201 - check.measured201
        } of ${retried} cut-off requests retried with their key): ${check.equal ? 'equal' : 'NOT EQUAL'}`,
    );
  }
  if (results.cardOrderCheck) {
    const check = results.cardOrderCheck;
    lines.push(
      `- P5: ${check.ordersStored} card orders stored, ${check.answered201} answered 201: ${
        check.equal ? 'equal' : 'NOT EQUAL'
      }`,
    );
  }
  for (const scenario of results.scenarios) {
    const drain = scenario.mailDrain;
    if (!drain) continue;
    lines.push(
      `- ${scenario.id}: ${drain.mails - drain.unsent} of ${drain.mails} due mails sent in ` +
        `${drain.seconds.toFixed(2)} s (${drain.mailsPerSecond.toFixed(0)} a second) by one process; ` +
        `the relay accepted ${drain.accepted}, ${drain.duplicates} twice, the last ` +
        `${drain.relaySeconds.toFixed(2)} s after the commit`,
    );
  }
  for (const scenario of results.scenarios) {
    const streams = scenario.streams;
    if (!streams) continue;
    lines.push(
      `- ${scenario.id}: ${streams.streams} station streams over ${streams.stations} stations; ` +
        `${streams.acceptances} acceptances measured (${streams.acceptancesPerSecond.toFixed(1)} a second, ` +
        `${streams.accepted} answered 200, p50 ${streams.acceptanceP50Ms} ms, p99 ${streams.acceptanceP99Ms} ms); ` +
        `${streams.received} of ${streams.expected} deliveries received (${streams.duplicates} twice); ` +
        `from the send p50 ${streams.p50Ms} ms, p99 ${streams.p99Ms} ms, max ${streams.maxMs} ms; ` +
        `after the answer p50 ${streams.afterAnswerP50Ms} ms, p99 ${streams.afterAnswerP99Ms} ms`,
    );
  }
  lines.push(...cpuLines(results.scenarios));
  lines.push(`- seeding through the API: ${results.seedSeconds.toFixed(1)} s`);
  lines.push('');
  lines.push('| target | result | met |');
  lines.push('| --- | --- | --- |');
  for (const verdict of results.targets) {
    lines.push(`| ${verdict.target} | ${verdict.detail} | ${verdict.met ? 'yes' : 'no'} |`);
  }
  return lines.join('\n');
}

/** Orders stored by a placement run against its 201 answers. */
export function checkOrders(answer: LoadAnswer, before: number, after: number): OrderCheck {
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
