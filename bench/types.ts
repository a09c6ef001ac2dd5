/** What the harness sends to its children and what they answer. */
import type { CpuUse } from './cpu-use';

export interface LoadSpec {
  name: string;
  /** Always http://127.0.0.1:<port>/... */
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
  /** Bodies used in turn, one per request (with idempotencyKeys). */
  bodies?: string[];
  /** Paths to spread the requests over, each request one of them uniformly at random. */
  paths?: string[];
  /**
   * Send `paths` in turn instead of at random, each once over the warm-up and
   * the measured period (P9: every acceptance accepts an order of its own).
   */
  pathsInTurn?: boolean;
  /** A fresh Idempotency-Key per request, `${keyPrefix}-<n>`. */
  idempotencyKeys: boolean;
  keyPrefix: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** The server the load goes to, whose CPU the measured period's summary reports. */
  serverPid?: number;
}

export interface LoadSummary {
  requestsPerSecond: number;
  completed: number;
  durationSeconds: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  bytesPerSecond: number;
  /** Epoch ms of the period, to find it again in a CPU profile of the service. */
  startedAtMs: number;
  finishedAtMs: number;
  /** A load measured in halves (Scenario.alternate): each half's period, the other side's between them. */
  periods?: Array<{ startedAtMs: number; finishedAtMs: number }>;
  /** The CPU the measured period cost the server and PostgreSQL (Linux; see cpu-use.ts). */
  cpu?: CpuUse;
}

/** Requests cut off at the end of a period, sent again with their Idempotency-Key. */
export interface RetrySummary {
  sent: number;
  statusCodes: Record<string, number>;
}

export interface LoadAnswer {
  name: string;
  warmup?: LoadSummary;
  warmupRetries?: RetrySummary;
  measured?: LoadSummary;
  measuredRetries?: RetrySummary;
}
