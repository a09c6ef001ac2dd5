/**
 * P14: the kitchen's station streams while orders are accepted. STREAMS
 * station streams of P9's kitchen business (three stations, spread evenly)
 * are opened as the owner, then pending orders of that business are
 * accepted at a steady ACCEPTANCES_PER_SECOND, each request sent on its
 * schedule whether or not the one before it has been answered, for the
 * warm-up and then the measured period. Every order has lines for every
 * station, so each acceptance answered 200 must bring its station's
 * `ticket.created` to every stream once: the delay counted is from the
 * acceptance's send to the event's arrival on each stream. The orders are
 * taken from the end of P9's pending orders (P9's loads take them from the
 * start), so the two rows never accept the same order.
 *
 * Plain node:http, every stream on a socket of its own and the acceptances
 * on a keep-alive agent without a socket limit, so no client-side pool caps
 * the connections.
 */
import { Agent, IncomingMessage, request } from 'node:http';
import { log, NS, settings } from './bench-env';
import { sleep } from './processes';
import { pathsOf } from './requests';
import { KITCHEN_STATION_KEYS } from './seed-kitchen';
import { Seeded } from './seed';
import { LoadSummary } from './types';

export const STATION_STREAMS = 200;
export const ACCEPTANCES_PER_SECOND = 4;
/** How long deliveries may still come after the last acceptance is answered. */
const LATE_DELIVERY_MS = 5_000;
const OPEN_AT_ONCE = 20;
const ANSWER_DEADLINE_MS = 60_000;
/** The ticket's order in an event's JSON data (read without parsing the whole ticket). */
const ORDER_OF = /"order_uuid":"([0-9a-f-]{36})"/;

export interface StationStreamsMeasure {
  streams: number;
  stations: number;
  /** Acceptances sent in the measured period, and how many were answered 200. */
  acceptances: number;
  accepted: number;
  acceptancesPerSecond: number;
  /** The acceptances' own answer times (measured period). */
  acceptanceP50Ms: number;
  acceptanceP99Ms: number;
  /** One `ticket.created` on every stream for every acceptance answered 200. */
  expected: number;
  received: number;
  /** The same order's ticket twice on one stream. */
  duplicates: number;
  /** From the acceptance's send to the event on a stream. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the acceptance's answer to the event (0 when the event came first). */
  afterAnswerP50Ms: number;
  afterAnswerP99Ms: number;
  /** Streams that failed to open or ended before the measure did. */
  streamFailures: number;
}

interface Acceptance {
  sentAt: number;
  answeredAt?: number;
  status?: number;
  measured: boolean;
}

interface OpenStream {
  station: string;
  /** Order uuid → arrivals of its ticket on this stream. */
  arrivals: Map<string, number[]>;
  close(): void;
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return Math.round(sorted[Math.max(0, Math.ceil(sorted.length * p) - 1)]);
}

/** Opens one stream; resolves once the service answered 200 (the stream is then listening). */
function openStream(
  url: string,
  headers: Record<string, string>,
  station: string,
  failed: () => void,
): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const arrivals = new Map<string, number[]>();
    let open = true;
    let answered = false;
    const req = request(`${url}?station=${station}`, { headers, agent: false });
    const lost = () => {
      if (open) failed();
      open = false;
    };
    req.on('error', (error) => (answered ? lost() : reject(error)));
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`a station stream answered ${res.statusCode}`));
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.includes('event: stream.closed')) lost();
          if (!frame.includes('event: ticket.created')) continue;
          const order = ORDER_OF.exec(frame)?.[1];
          if (order) arrivals.set(order, [...(arrivals.get(order) ?? []), at]);
        }
      });
      res.on('close', lost);
      resolve({
        station,
        arrivals,
        close: () => {
          open = false;
          req.destroy();
        },
      });
    });
    req.end();
  });
}

function accept(url: string, headers: Record<string, string>, agent: Agent, into: Acceptance) {
  return new Promise<void>((resolve) => {
    const req = request(url, { method: 'PUT', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        into.answeredAt = performance.now();
        into.status = res.statusCode;
        resolve();
      });
    });
    req.on('error', () => {
      into.status = 0;
      resolve();
    });
    req.end(JSON.stringify({ status: 'accepted' }));
  });
}

/** Opens the streams, accepts orders on schedule, and counts what each stream received. */
export async function measureStationStreams(
  base: string,
  apiKey: string,
  seeded: Seeded,
): Promise<{ measure: StationStreamsMeasure; summary: LoadSummary }> {
  const side = seeded.kitchen.kitchen;
  const owner = { 'x-api-key': apiKey, authorization: `Bearer ${seeded.token}` };
  const streamUrl = `${base}/public/api/v1/${NS}/businesses/${side.businessUuid}/kitchen/stream`;
  let streamFailures = 0;
  const streams: OpenStream[] = [];
  const agent = new Agent({ keepAlive: true });
  try {
    for (let i = 0; i < STATION_STREAMS; i += OPEN_AT_ONCE) {
      const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, STATION_STREAMS - i) }, (_, j) =>
        openStream(
          streamUrl,
          owner,
          KITCHEN_STATION_KEYS[(i + j) % KITCHEN_STATION_KEYS.length],
          () => streamFailures++,
        ),
      );
      streams.push(...(await Promise.all(batch)));
    }
    const total = Math.ceil(
      (settings.warmupSeconds + settings.durationSeconds) * ACCEPTANCES_PER_SECOND,
    );
    if (total > side.pendingOrders.length / 2) throw new Error('P14: too few pending orders');
    const orders = side.pendingOrders.slice(-total).reverse();
    log(
      `P14: ${streams.length} station streams open; accepting ${ACCEPTANCES_PER_SECOND} orders a second, ` +
        `${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured`,
    );
    const updatePath = base + pathsOf(seeded).orderUpdate;
    const headers = { ...owner, 'content-type': 'application/json' };
    const acceptances = new Map<string, Acceptance>();
    const answers: Array<Promise<void>> = [];
    const startedAt = performance.now();
    const measuredFrom = startedAt + settings.warmupSeconds * 1000;
    for (let k = 0; k < total; k++) {
      const due = startedAt + (k * 1000) / ACCEPTANCES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const sentAt = performance.now();
      const record: Acceptance = { sentAt, measured: sentAt >= measuredFrom };
      acceptances.set(orders[k], record);
      answers.push(accept(updatePath + orders[k], headers, agent, record));
    }
    const endedAt = performance.now();
    await Promise.race([Promise.all(answers), sleep(ANSWER_DEADLINE_MS)]);
    const measured = [...acceptances].filter(([, a]) => a.measured);
    const accepted = measured.filter(([, a]) => a.status === 200);
    const expected = accepted.length * streams.length;
    const count = () =>
      streams.reduce(
        (sum, stream) => sum + accepted.filter(([order]) => stream.arrivals.has(order)).length,
        0,
      );
    const lateBy = performance.now() + LATE_DELIVERY_MS;
    while (count() < expected && performance.now() < lateBy) await sleep(100);

    const fromSend: number[] = [];
    const fromAnswer: number[] = [];
    let duplicates = 0;
    for (const stream of streams) {
      for (const [order, acceptance] of accepted) {
        const arrivals = stream.arrivals.get(order);
        if (!arrivals) continue;
        duplicates += arrivals.length - 1;
        fromSend.push(arrivals[0] - acceptance.sentAt);
        fromAnswer.push(Math.max(0, arrivals[0] - (acceptance.answeredAt ?? acceptance.sentAt)));
      }
    }
    fromSend.sort((a, b) => a - b);
    fromAnswer.sort((a, b) => a - b);
    const answerTimes = measured
      .filter(([, a]) => a.answeredAt !== undefined)
      .map(([, a]) => a.answeredAt! - a.sentAt)
      .sort((a, b) => a - b);
    const seconds = settings.durationSeconds;
    const measure: StationStreamsMeasure = {
      streams: streams.length,
      stations: KITCHEN_STATION_KEYS.length,
      acceptances: measured.length,
      accepted: accepted.length,
      acceptancesPerSecond: measured.length / seconds,
      acceptanceP50Ms: percentile(answerTimes, 0.5),
      acceptanceP99Ms: percentile(answerTimes, 0.99),
      expected,
      received: fromSend.length,
      duplicates,
      p50Ms: percentile(fromSend, 0.5),
      p99Ms: percentile(fromSend, 0.99),
      maxMs: Math.round(fromSend[fromSend.length - 1] ?? NaN),
      afterAnswerP50Ms: percentile(fromAnswer, 0.5),
      afterAnswerP99Ms: percentile(fromAnswer, 0.99),
      streamFailures,
    };
    const statusCodes: Record<string, number> = {};
    for (const [, a] of measured) {
      if (a.status) statusCodes[String(a.status)] = (statusCodes[String(a.status)] ?? 0) + 1;
    }
    const answered = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
    log(
      `P14: ${measure.received} of ${expected} deliveries (${duplicates} twice), from the send ` +
        `p50 ${measure.p50Ms} ms, p99 ${measure.p99Ms} ms; ${accepted.length} of ` +
        `${measured.length} acceptances answered 200 (p99 ${measure.acceptanceP99Ms} ms); ` +
        `${streamFailures} streams lost`,
    );
    // The table's row: deliveries, their delays, and the acceptances' answers.
    const summary: LoadSummary = {
      requestsPerSecond: measure.received / seconds,
      completed: measure.received,
      durationSeconds: seconds,
      p50Ms: measure.p50Ms,
      p90Ms: percentile(fromSend, 0.9),
      p99Ms: measure.p99Ms,
      maxMs: measure.maxMs,
      // Streams lost, and acceptances that failed or were not answered.
      errors: streamFailures + measured.length - answered,
      timeouts: measured.filter(([, a]) => a.status === undefined).length,
      non2xx: answered - accepted.length,
      statusCodes,
      bytesPerSecond: 0,
      startedAtMs: Date.now() - Math.round(performance.now() - measuredFrom),
      finishedAtMs: Date.now() - Math.round(performance.now() - endedAt),
    };
    return { measure, summary };
  } finally {
    for (const stream of streams) stream.close();
    agent.destroy();
  }
}
