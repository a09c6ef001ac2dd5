/**
 * One phase of `npm run bench` (bench/harness.ts): the wanted rows of
 * bench/scenarios.ts in table order, each row's loads, order check and line
 * of the table.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { analyze, countOrders, lastAnalyzed, stockTotals, waitForOutboxDrain } from './bench-db';
import { log, NS, Service, settings, wanted } from './bench-env';
import { ask, peakRssMiB } from './processes';
import { checkOrders, OrderCheck, ScenarioResult, settleRatios } from './report';
import { SCENARIOS } from './scenarios';
import { Load, Phase, Scenario } from './scenario-types';
import { currentEtag, Request, RequestContext, requestOf } from './requests';
import { Seeded } from './seed';
import { LONG_TAIL_BUSINESSES, primeLongTail, seedLongTail } from './seed-long-tail';
import {
  linesCsv,
  measureCsvExport,
  prepareLineOrders,
  prepareReportOrders,
  yearCsv,
} from './report-bench';
import { sheetsBeside } from './sheets-beside';
import { KITCHEN_STATIONS, kitchenTotals, prepareKitchenOrders } from './seed-kitchen';
import { measureMailDrain } from './mail-drain';
import { prepareUssdOrders } from './seed-ussd';
import { measureStationStreams } from './station-streams';
import type { SmtpSink } from '../test/support/smtp-sink';
import { LoadAnswer, LoadSpec, LoadSummary, RetrySummary } from './types';

/** A load's periods, when not the run's settings. */
interface Timing {
  warmupSeconds: number;
  durationSeconds: number;
}

async function load(
  loader: ChildProcess,
  name: string,
  spec: Request,
  timing: Timing = settings,
): Promise<LoadAnswer> {
  log(`${name}: ${timing.warmupSeconds} s warm-up, ${timing.durationSeconds} s measured`);
  const full: LoadSpec = {
    name,
    connections: settings.connections,
    warmupSeconds: timing.warmupSeconds,
    durationSeconds: timing.durationSeconds,
    keyPrefix: `${name.replace(/\W+/g, '-')}-${randomBytes(4).toString('hex')}`,
    ...spec,
  };
  const timeoutMs = (timing.warmupSeconds + timing.durationSeconds) * 1000 + 180_000;
  const answer = await ask<LoadAnswer>(loader, full, timeoutMs);
  const m = answer.measured!;
  log(
    `${name}: ${m.requestsPerSecond.toFixed(0)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, ` +
      `errors ${m.errors}, non-2xx ${m.non2xx} ${JSON.stringify(m.statusCodes)}` +
      (m.cpu && m.completed > 0
        ? `, CPU a request: server ${(m.cpu.serverMs / m.completed).toFixed(2)} ms, ` +
          `PostgreSQL ${(m.cpu.postgresMs / m.completed).toFixed(2)} ms`
        : ''),
  );
  return answer;
}

/**
 * The halves of an alternating row (Scenario.alternate): the first of each
 * side warms up as a whole load does, the second only while its connections
 * open, the service having just served the same kind of request.
 */
function halvesOf(): [Timing, Timing] {
  const durationSeconds = settings.durationSeconds / 2;
  return [
    { warmupSeconds: settings.warmupSeconds, durationSeconds },
    { warmupSeconds: Math.min(settings.warmupSeconds, 2), durationSeconds },
  ];
}

/**
 * Two loads of one request as one: counts added up, the rate over both
 * measured periods, and each latency percentile the higher of the two (the
 * periods' own distributions are not kept, so this errs on the slow side).
 */
function mergeSummaries(a: LoadSummary, b: LoadSummary): LoadSummary {
  const durationSeconds = a.durationSeconds + b.durationSeconds;
  const statusCodes = { ...a.statusCodes };
  for (const [code, n] of Object.entries(b.statusCodes)) {
    statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  return {
    requestsPerSecond: (a.completed + b.completed) / durationSeconds,
    completed: a.completed + b.completed,
    durationSeconds,
    p50Ms: Math.max(a.p50Ms, b.p50Ms),
    p90Ms: Math.max(a.p90Ms, b.p90Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    maxMs: Math.max(a.maxMs, b.maxMs),
    errors: a.errors + b.errors,
    timeouts: a.timeouts + b.timeouts,
    non2xx: a.non2xx + b.non2xx,
    statusCodes,
    bytesPerSecond:
      (a.bytesPerSecond * a.durationSeconds + b.bytesPerSecond * b.durationSeconds) /
      durationSeconds,
    startedAtMs: Math.min(a.startedAtMs, b.startedAtMs),
    finishedAtMs: Math.max(a.finishedAtMs, b.finishedAtMs),
    periods: [a, b].flatMap(
      ({ startedAtMs, finishedAtMs, periods }) => periods ?? [{ startedAtMs, finishedAtMs }],
    ),
    ...(a.cpu && b.cpu
      ? {
          cpu: {
            serverMs: a.cpu.serverMs + b.cpu.serverMs,
            postgresMs: a.cpu.postgresMs + b.cpu.postgresMs,
          },
        }
      : {}),
  };
}

function mergeRetries(a?: RetrySummary, b?: RetrySummary): RetrySummary | undefined {
  if (!a || !b) return a ?? b;
  const statusCodes = { ...a.statusCodes };
  for (const [code, n] of Object.entries(b.statusCodes)) {
    statusCodes[code] = (statusCodes[code] ?? 0) + n;
  }
  return { sent: a.sent + b.sent, statusCodes };
}

/** The answers of a row's two halves of one side as one answer (its order check counts both). */
function mergeAnswers(a: LoadAnswer, b: LoadAnswer): LoadAnswer {
  const both = (x?: LoadSummary, y?: LoadSummary) => (x && y ? mergeSummaries(x, y) : (x ?? y));
  return {
    name: a.name,
    warmup: both(a.warmup, b.warmup),
    warmupRetries: mergeRetries(a.warmupRetries, b.warmupRetries),
    measured: both(a.measured, b.measured),
    measuredRetries: mergeRetries(a.measuredRetries, b.measuredRetries),
  };
}

/** Everything the scenarios of one run share; `service` is the one of the current phase. */
export interface RunState {
  dbUrl: string;
  apiKey: string;
  seeded: Seeded;
  loader: ChildProcess;
  service: Service;
  ceiling: { child: ChildProcess; base: string };
  /** The measured loads of every row so far, by row id. */
  measured: Map<string, { service?: LoadSummary; ceiling?: LoadSummary }>;
  scenarios: ScenarioResult[];
  checks: { orderCheck?: OrderCheck; cardOrderCheck?: OrderCheck };
  /** The bench's SMTP server, which the service of the 'smtp relay' phase sends to. */
  smtp?: SmtpSink;
}

function contextOf(state: RunState, etag?: string): RequestContext {
  const bases = {
    service: state.service.base,
    ceiling: state.ceiling.base,
    floor: `${state.ceiling.base}/floor`,
  };
  return { bases, apiKey: state.apiKey, seeded: state.seeded, etag };
}

/** The request with the pid of the process that answers it (the service, or the ceiling and its floor). */
function toServer(state: RunState, request: Request): Request {
  const origin = new URL(request.url).origin;
  const pid =
    origin === new URL(state.service.base).origin
      ? state.service.child.pid
      : origin === new URL(state.ceiling.base).origin
        ? state.ceiling.child.pid
        : undefined;
  return { ...request, serverPid: pid };
}

async function loadOf(state: RunState, spec: Load, timing?: Timing): Promise<LoadAnswer> {
  return load(state.loader, spec.name, toServer(state, requestOf(spec, contextOf(state))), timing);
}

/** The part of `row` that belongs to `phase`: its loads, its order check, its row of the table. */
async function runScenario(row: Scenario, phase: Phase, state: RunState): Promise<void> {
  const measured = state.measured.get(row.id) ?? {};
  state.measured.set(row.id, measured);
  const reported = row.phase === phase;
  const ceilingLoad = row.ceiling && 'name' in row.ceiling ? row.ceiling : undefined;
  const ceilingRef = row.ceiling && 'row' in row.ceiling ? row.ceiling : undefined;
  const drain = () => (row.drainOutbox ? waitForOutboxDrain(state.dbUrl) : Promise.resolve());

  if (row.prepare === 'report orders') await prepareReportOrders(state.dbUrl, state.seeded);
  if (row.prepare === 'line orders') await prepareLineOrders(state.dbUrl, state.seeded);
  if (row.prepare === 'kitchen orders')
    await prepareKitchenOrders(state.dbUrl, state.seeded.kitchen);
  if (row.prepare === 'ussd orders') await prepareUssdOrders(state.dbUrl, state.seeded.ussd!);
  const owner = { 'x-api-key': state.apiKey, authorization: `Bearer ${state.seeded.token}` };
  const download =
    row.measure === 'csv export'
      ? yearCsv(NS, state.seeded)
      : row.measure === 'csv export with lines'
        ? linesCsv(NS, state.seeded)
        : undefined;
  const csv =
    reported && download
      ? await measureCsvExport(state.service.base, download, owner, state.service.child.pid!)
      : undefined;
  const mailDrain =
    reported && row.measure === 'mail drain' && state.smtp
      ? await measureMailDrain(state.dbUrl, state.smtp)
      : undefined;
  const streams =
    reported && row.measure === 'station streams'
      ? await measureStationStreams(state.service.base, state.apiKey, state.seeded)
      : undefined;
  const halves = reported && ceilingLoad && row.ceilingFirst && row.alternate ? halvesOf() : null;
  let firstCeiling: LoadAnswer | undefined;
  if (reported && ceilingLoad && row.ceilingFirst) {
    firstCeiling = await loadOf(state, ceilingLoad, halves?.[0]);
    measured.ceiling = firstCeiling.measured;
    await drain();
  }
  if (row.service && (row.serviceLoadedIn ?? row.phase) === phase) {
    if (row.prepare === 'long tail') await prepareLongTail(row, state);
    const etag =
      row.service.headers === 'if-none-match'
        ? await currentEtag(row.service, contextOf(state))
        : undefined;
    const before = row.orderCheck ? await countOrders(state.dbUrl) : 0;
    const side = row.beside === 'table sheets' ? sheetsBeside(state.service.base) : undefined;
    const request = toServer(state, requestOf(row.service, contextOf(state, etag)));
    let answer = await load(state.loader, row.service.name, request, halves?.[0]);
    if (halves) {
      await drain();
      answer = mergeAnswers(answer, await load(state.loader, row.service.name, request, halves[1]));
    }
    await side?.stop();
    if (row.orderCheck) {
      const check = checkOrders(answer, before, await countOrders(state.dbUrl));
      state.checks[row.orderCheck.into] = check;
      log(
        `${row.id}: ${row.orderCheck.logAs} ${check.ordersStored}, 201 answers ${check.answered201}` +
          ` → ${check.equal ? 'equal' : 'NOT EQUAL'}`,
      );
    }
    if (row.stockCheck) await checkHotStock(state);
    measured.service = answer.measured;
  }
  if (halves && ceilingLoad && firstCeiling) {
    await drain();
    measured.ceiling = mergeAnswers(
      firstCeiling,
      await loadOf(state, ceilingLoad, halves[1]),
    ).measured;
  }
  if (!reported) return;
  if (row.ticketCheck) await checkTickets(state);
  const title = row.unanalyzed
    ? `${row.title} [entities ${(await lastAnalyzed(state.dbUrl)) ?? 'never analyzed'} ]`
    : row.title;
  if (ceilingLoad && !row.ceilingFirst)
    measured.ceiling = (await loadOf(state, ceilingLoad)).measured;

  const ceiling = ceilingLoad
    ? measured.ceiling
    : ceilingRef && state.measured.get(ceilingRef.row)?.[ceilingRef.side];
  const ratioTo =
    row.ratioTo === 'ceiling'
      ? ceiling
      : row.ratioTo && state.measured.get(row.ratioTo.row)?.[row.ratioTo.side];
  state.scenarios.push({
    id: row.id,
    title,
    service: row.service ? measured.service : streams?.summary,
    ceiling,
    ceilingLabel: row.ceilingLabel,
    ratio: ratioTo ? measured.service!.requestsPerSecond / ratioTo.requestsPerSecond : undefined,
    ratioAgainst: ratioTo,
    ratioPending: !ratioTo && typeof row.ratioTo === 'object' ? row.ratioTo : undefined,
    targetRatio: row.targetRatio,
    ratioOf: row.ratioOf,
    targetP99Ms: row.targetP99Ms,
    targetP50Ms: row.targetP50Ms,
    csv,
    mailDrain,
    streams: streams?.measure,
    targetRowsPerSecond: row.targetRowsPerSecond,
    targetRssGrowthMB: row.targetRssGrowthMB,
    expectedStatus: row.expectedStatus,
    serviceRssAfterMiB: row.service || streams ? peakRssMiB(state.service.child.pid) : undefined,
    ceilingRssAfterMiB:
      ceilingLoad?.at === 'ceiling' ? peakRssMiB(state.ceiling.child.pid) : undefined,
  });
  await drain();
}

/** P6's long tail: seeded straight into the database, then each storefront read once. */
async function prepareLongTail(row: Scenario, state: RunState): Promise<void> {
  log(`${row.only}: seeding ${LONG_TAIL_BUSINESSES} businesses with one menu each`);
  const started = performance.now();
  await seedLongTail(state.dbUrl, NS, state.seeded.ownerEmail);
  await analyze(state.dbUrl);
  log(
    `${row.only}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s; reading each once`,
  );
  await primeLongTail(state.service.base, NS, state.apiKey);
}

/**
 * The wanted rows of one phase in table order, and the service's VmHWM for
 * the RSS budget: VmHWM only grows, so it is read before the rows outside the
 * budget (P4's argon2id takes tens of MB per hash in flight, P6 reads
 * thousands of storefronts).
 */
export async function runPhase(phase: Phase, state: RunState): Promise<number | null> {
  const rows = SCENARIOS.filter(
    (row) => wanted(row.only) && (row.phase === phase || row.serviceLoadedIn === phase),
  );
  // Rows on tables without statistics first, then the statistics every other row is measured with.
  for (const row of rows.filter((r) => r.unanalyzed)) await runScenario(row, phase, state);
  if (phase === 'cache off') await analyze(state.dbUrl);
  for (const row of rows.filter((r) => !r.outsideRssBudget && !r.unanalyzed)) {
    await runScenario(row, phase, state);
  }
  const peak = peakRssMiB(state.service.child.pid);
  for (const row of rows.filter((r) => r.outsideRssBudget)) await runScenario(row, phase, state);
  settleRatios(
    state.scenarios,
    (ref) => state.measured.get(ref.row)?.[ref.side],
    SCENARIOS.map((row) => row.id),
  );
  return peak;
}

/** The hot stocked item's count against the portions its stored orders hold: they must be equal. */
async function checkHotStock(state: RunState): Promise<void> {
  const { ordered, taken } = await stockTotals(state.dbUrl, state.seeded.stock.hotItem.uuid);
  log(
    `P10 hot: portions in stored orders ${ordered}, stock taken ${taken} → ${ordered === taken ? 'equal' : 'NOT EQUAL'}`,
  );
  if (ordered !== taken)
    throw new Error(`The hot item's stock lost count: ${taken} taken for ${ordered} ordered`);
}

/** Every accepted order has one ticket per station: three with the kitchen setting, one without. */
async function checkTickets(state: RunState): Promise<void> {
  const sides = [
    { label: '3 stations', uuid: state.seeded.kitchen.kitchen.businessUuid, per: KITCHEN_STATIONS },
    { label: 'no kitchen setting', uuid: state.seeded.kitchen.plain.businessUuid, per: 1 },
  ];
  for (const side of sides) {
    const { accepted, tickets } = await kitchenTotals(state.dbUrl, side.uuid);
    const equal = tickets === side.per * accepted;
    log(
      `P9 ${side.label}: accepted orders ${accepted}, tickets stored ${tickets} ` +
        `(${side.per} × ${accepted} = ${side.per * accepted}) → ${equal ? 'equal' : 'NOT EQUAL'}`,
    );
    if (!equal)
      throw new Error(`P9 ${side.label}: ${tickets} tickets for ${accepted} accepted orders`);
  }
}
