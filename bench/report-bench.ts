/**
 * P7, P8 and P16: the year's reports and CSV export of a business with
 * REPORT_ORDERS orders, and the CSV with lines of orders of many lines.
 * The orders are seeded straight into the bench database once
 * (bench/seed-reports.ts, bench/seed-line-orders.ts); P7's reports are
 * ordinary loads (one connection: the time of one report, not a queue), P8
 * and P16 each download a CSV once while sampling the service's resident
 * memory.
 */
import { readFileSync } from 'node:fs';
import { analyze } from './bench-db';
import { log } from './bench-env';
import { Seeded } from './seed';
import { REPORT_FROM, REPORT_ORDERS, REPORT_TO, seedReportOrders } from './seed-reports';
import {
  LINE_ORDERS,
  LINE_ORDERS_FROM,
  LINE_ORDERS_TO,
  LINES_PER_ORDER,
  seedLineOrders,
} from './seed-line-orders';

const RSS_SAMPLE_MS = 20;
const DOWNLOAD_TIMEOUT_MS = 300_000;

export interface CsvMeasure {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  bytes: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  rssGrowthMiB: number;
}

let seeding: Promise<void> | undefined;
let seedingLines: Promise<void> | undefined;

/** What one CSV download is: its path, the rows it must have, the row it is logged as. */
export interface CsvDownload {
  label: string;
  path: string;
  rows: number;
}

/** P8's download: the year's orders, one row each. */
export function yearCsv(ns: string, seeded: Seeded): CsvDownload {
  return { label: 'P8', path: reportPath(ns, seeded, 'csv'), rows: REPORT_ORDERS };
}

/** P16's download: LINE_ORDERS orders of LINES_PER_ORDER lines, one row per line. */
export function linesCsv(ns: string, seeded: Seeded): CsvDownload {
  const base = `/public/api/v1/${ns}/businesses/${seeded.priced.businessUuid}`;
  return {
    label: 'P16',
    path: `${base}/orders.csv?from=${LINE_ORDERS_FROM}&to=${LINE_ORDERS_TO}&lines=true`,
    rows: LINE_ORDERS * LINES_PER_ORDER,
  };
}

/** Seeds P16's orders of many lines once per run. */
export function prepareLineOrders(dbUrl: string, seeded: Seeded): Promise<void> {
  seedingLines ??= (async () => {
    log(`P16: seeding ${LINE_ORDERS} orders of ${LINES_PER_ORDER} lines`);
    const { businessUuid, menuUuid, items } = seeded.priced;
    await seedLineOrders(dbUrl, businessUuid, menuUuid, items);
    await analyze(dbUrl);
  })();
  return seedingLines;
}

/** Seeds the report orders once per run, however many rows ask for them. */
export function prepareReportOrders(dbUrl: string, seeded: Seeded): Promise<void> {
  seeding ??= (async () => {
    log(`P7/P8: seeding ${REPORT_ORDERS} orders over ${REPORT_FROM} … ${REPORT_TO}`);
    const started = performance.now();
    await seedReportOrders(dbUrl, seeded.businessUuid, seeded.smallMenuUuid, seeded.smallMenuItems);
    await analyze(dbUrl);
    log(`P7/P8: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  })();
  return seeding;
}

/** The path of a report of the seeded year, or of its CSV. */
export function reportPath(ns: string, seeded: Seeded, what: 'sales' | 'items' | 'csv'): string {
  const base = `/public/api/v1/${ns}/businesses/${seeded.businessUuid}`;
  const period = `from=${REPORT_FROM}&to=${REPORT_TO}`;
  if (what === 'csv') return `${base}/orders.csv?${period}`;
  return what === 'sales'
    ? `${base}/reports/sales?${period}&group_by=day`
    : `${base}/reports/items?${period}&limit=20`;
}

/** VmRSS (current resident set) of a process in MiB. */
function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return match ? Number(match[1]) / 1024 : 0;
}

/** Downloads a CSV once, counting its rows and sampling the service's VmRSS. */
export async function measureCsvExport(
  base: string,
  download: CsvDownload,
  headers: Record<string, string>,
  servicePid: number,
): Promise<CsvMeasure> {
  const { label, path } = download;
  const rssBeforeMiB = rssMiB(servicePid);
  let rssPeakMiB = rssBeforeMiB;
  const sampler = setInterval(() => {
    rssPeakMiB = Math.max(rssPeakMiB, rssMiB(servicePid));
  }, RSS_SAMPLE_MS);
  const started = performance.now();
  let records = 0;
  let bytes = 0;
  try {
    const res = await fetch(base + path, {
      headers,
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
    if (res.status !== 200 || !res.body)
      throw new Error(`${label}: the CSV answered ${res.status}`);
    // The seeded cells hold no line breaks, so each CRLF ends one record.
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) records++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  rssPeakMiB = Math.max(rssPeakMiB, rssMiB(servicePid));
  const rows = records - 1;
  const measure: CsvMeasure = {
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    bytes,
    rssBeforeMiB: round(rssBeforeMiB),
    rssPeakMiB: round(rssPeakMiB),
    rssGrowthMiB: round(rssPeakMiB - rssBeforeMiB),
  };
  log(
    `${label}: ${rows} rows (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${seconds.toFixed(2)} s = ` +
      `${measure.rowsPerSecond.toFixed(0)} rows/s; VmRSS ${measure.rssBeforeMiB} → ` +
      `${measure.rssPeakMiB} MiB (+${measure.rssGrowthMiB})`,
  );
  if (rows !== download.rows) log(`${label}: expected ${download.rows} rows, got ${rows}`);
  return measure;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
