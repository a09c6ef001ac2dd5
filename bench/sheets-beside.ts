/**
 * P17's side load: rounds of SHEETS_AT_ONCE table sheets of SHEET_TABLES
 * tables each, fired at once and again as soon as a round is done, until
 * stopped. Every sheet has a label of its own, so no answer comes from the
 * service's cache: each is rendered.
 */
import { BUSINESS_META_KEY, SMALL_MENU_META_KEY } from './seed';
import { log, NS } from './bench-env';

export const SHEETS_AT_ONCE = 20;
export const SHEET_TABLES = 200;
const SHEET_TIMEOUT_MS = 300_000;

export interface SheetsSummary {
  rounds: number;
  sheets: number;
  statusCodes: Record<string, number>;
  /** The slowest sheet, from request to its last byte. */
  slowestMs: number;
}

export function sheetsBeside(base: string): { stop(): Promise<SheetsSummary> } {
  const summary: SheetsSummary = { rounds: 0, sheets: 0, statusCodes: {}, slowestMs: 0 };
  let stopping = false;
  const path = `/public/api/v1/${NS}/storefront/${BUSINESS_META_KEY}/menu/${SMALL_MENU_META_KEY}/qr-sheet.pdf`;
  const sheet = async (label: string) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}?tables=1-${SHEET_TABLES}&label=${label}`, {
      signal: AbortSignal.timeout(SHEET_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    summary.statusCodes[res.status] = (summary.statusCodes[res.status] ?? 0) + 1;
    summary.sheets += 1;
    summary.slowestMs = Math.max(summary.slowestMs, performance.now() - started);
  };
  const running = (async () => {
    while (!stopping) {
      const round = summary.rounds++;
      await Promise.all(Array.from({ length: SHEETS_AT_ONCE }, (_, i) => sheet(`R${round}S${i}`)));
    }
  })();
  return {
    async stop() {
      stopping = true;
      await running;
      log(
        `P17: ${summary.sheets} sheets of ${SHEET_TABLES} tables in ${summary.rounds} rounds of ` +
          `${SHEETS_AT_ONCE}, ${JSON.stringify(summary.statusCodes)}, slowest ${summary.slowestMs.toFixed(0)} ms`,
      );
      return summary;
    },
  };
}
