import { Counter, Gauge, Histogram } from 'prom-client';
import { OutboxLaneName } from './outbox-lanes';

/**
 * The outbox's lanes on /metrics, created once per process in the default
 * registry (several apps may run in one process, as the tests do). Due rows
 * are counted in the database at scrape time (every process's view, so take
 * one replica's figure, not the sum); the rest is this process's own.
 */

/** One lane's figures at a scrape. `due` and `oldestDueSeconds` are undefined when the database did not answer. */
export interface LaneSnapshot {
  lane: OutboxLaneName;
  due: number | undefined;
  oldestDueSeconds: number | undefined;
  inFlight: number;
  concurrency: number;
  receiversAtCap: number;
}

/** Something that can give its lanes' figures: an app's outbox worker. */
export interface LaneSource {
  snapshot(): Promise<LaneSnapshot[]>;
}

const sources = new Set<LaneSource>();

/** The app's outbox lanes are reported at each scrape while it runs. */
export function trackOutboxLanes(source: LaneSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/** Each lane's figure across the apps of this process, combined by `combine` (sum or max). */
async function collectLanes(
  gauge: Gauge<'lane'>,
  pick: (lane: LaneSnapshot) => number | undefined,
  combine: (a: number, b: number) => number,
): Promise<void> {
  const values = new Map<OutboxLaneName, number>();
  for (const source of sources) {
    for (const lane of await source.snapshot()) {
      const value = pick(lane);
      if (value === undefined) continue;
      const known = values.get(lane.lane);
      values.set(lane.lane, known === undefined ? value : combine(known, value));
    }
  }
  gauge.reset();
  for (const [lane, value] of values) gauge.set({ lane }, value);
}

const sum = (a: number, b: number) => a + b;

export const outboxLaneDue = new Gauge({
  name: 'outbox_lane_due',
  help: 'Outbox rows of the lane that are due now and not being delivered (all processes, counted at scrape time).',
  labelNames: ['lane'] as const,
  async collect() {
    await collectLanes(this, (lane) => lane.due, Math.max);
  },
});

export const outboxLaneOldestDue = new Gauge({
  name: 'outbox_lane_oldest_due_seconds',
  help: 'How long the oldest due row of the lane has been waiting for a delivery slot (0: none waits).',
  labelNames: ['lane'] as const,
  async collect() {
    await collectLanes(this, (lane) => lane.oldestDueSeconds, Math.max);
  },
});

export const outboxLaneInFlight = new Gauge({
  name: 'outbox_lane_in_flight',
  help: 'Deliveries of the lane in flight in this process.',
  labelNames: ['lane'] as const,
  async collect() {
    await collectLanes(this, (lane) => lane.inFlight, sum);
  },
});

export const outboxLaneConcurrency = new Gauge({
  name: 'outbox_lane_concurrency',
  help: 'Deliveries the lane may have in flight at once in this process (its OUTBOX_*_CONCURRENCY).',
  labelNames: ['lane'] as const,
  async collect() {
    await collectLanes(this, (lane) => lane.concurrency, sum);
  },
});

export const outboxLaneReceiversAtCap = new Gauge({
  name: 'outbox_lane_receivers_at_cap',
  help: 'Receivers (webhook endpoints, message providers) holding all the slots they may have in this process.',
  labelNames: ['lane'] as const,
  async collect() {
    await collectLanes(this, (lane) => lane.receiversAtCap, sum);
  },
});

export const outboxDeliveries = new Counter({
  name: 'outbox_deliveries_total',
  help: 'Outbox delivery attempts by lane and result (sent, retry, failed).',
  labelNames: ['lane', 'result'] as const,
});

export const outboxDeliveryDuration = new Histogram({
  name: 'outbox_delivery_duration_seconds',
  help: 'Time one outbox delivery attempt took (the handler: SMTP exchange, webhook request), by lane.',
  labelNames: ['lane'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export function recordDelivery(
  lane: OutboxLaneName,
  result: 'sent' | 'retry' | 'failed',
  seconds: number,
): void {
  outboxDeliveries.inc({ lane, result });
  outboxDeliveryDuration.observe({ lane }, seconds);
}
