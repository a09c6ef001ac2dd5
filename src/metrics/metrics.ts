import { collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client';

/**
 * Every metric of the service, created once per process in prom-client's
 * default registry (several apps may run in one process, as the tests do, so
 * nothing here may be created per app). Other modules register their own
 * metrics in the same registry; GET /metrics answers all of them.
 */

collectDefaultMetrics();

/** Label of a request that matched no route, so a scan of random URLs adds no series. */
export const UNMATCHED_ROUTE = 'unmatched';

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duration of HTTP requests by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

export const ordersPlaced = new Counter({
  name: 'orders_placed_total',
  help: 'Orders placed (committed), replays of an idempotent placement not counted.',
});

/** Something that can say how many rows of the outbox wait or have failed. */
export interface OutboxCounter {
  countOutboxRows(): Promise<{ pending: number; failed: number }>;
}

/** Something that can say how many order streams it holds open. */
export interface StreamCounter {
  readonly size: number;
}

const outboxCounters = new Set<OutboxCounter>();
const streamCounters = new Set<StreamCounter>();

/** The app's outbox is counted at each scrape while it runs. */
export function trackOutbox(counter: OutboxCounter): () => void {
  outboxCounters.add(counter);
  return () => outboxCounters.delete(counter);
}

/** The app's stream hub is counted at each scrape while it runs. */
export function trackStreams(counter: StreamCounter): () => void {
  streamCounters.add(counter);
  return () => streamCounters.delete(counter);
}

export const outboxRows = new Gauge({
  name: 'outbox_rows',
  help: 'Outbox rows waiting to be sent (pending) or given up on (failed), counted at scrape time.',
  labelNames: ['state'] as const,
  async collect() {
    let pending = 0;
    let failed = 0;
    for (const counter of outboxCounters) {
      try {
        const counts = await counter.countOutboxRows();
        pending = Math.max(pending, counts.pending);
        failed = Math.max(failed, counts.failed);
      } catch {
        // The database is down: the scrape still answers; readiness reports the outage.
      }
    }
    this.set({ state: 'pending' }, pending);
    this.set({ state: 'failed' }, failed);
  },
});

export const sseStreamsOpen = new Gauge({
  name: 'sse_streams_open',
  help: 'Server-Sent Event streams open in this process.',
  collect() {
    let open = 0;
    for (const counter of streamCounters) open += counter.size;
    this.set(open);
  },
});
