import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { MailMessage, MailPort } from '../mail/mail.port';
import { OutboxKind } from './outbox.entity';
import { kindsOfLane, laneOfKind, OUTBOX_LANES, OutboxLaneName } from './outbox-lanes';
import { OutboxLane } from './outbox-lane';
import { LaneSnapshot, recordDelivery, trackOutboxLanes } from './outbox-metrics';
import { ClaimedRow, DueByKind, OutboxRepository } from './outbox.repository';
import { OUTBOX_MAX_ATTEMPTS, PermanentDeliveryError, retryDelayMs } from './outbox-retry';
import { OutboxSignal } from './outbox-signal';

/** Performs one outbox row; throw to have it retried (PermanentDeliveryError: failed at once). */
export type OutboxHandler = (
  payload: Record<string, unknown>,
  row: { uuid: string; attempts: number },
) => Promise<void>;

/**
 * How long a claimed row is kept from other processes. Short, so rows a
 * crashed process had claimed are sent again about a minute after; while a
 * delivery runs its lease is renewed every LEASE_RENEW_MS, so it always
 * outlives the attempt (a webhook's is at most 10 s, a stalled SMTP
 * exchange's 30 s of silence).
 */
export const OUTBOX_LEASE_MS = 60_000;
/** How often the leases are renewed, by the service's clock. */
export const LEASE_RENEW_MS = 20_000;
/** How often the worker looks whether that time has come. */
const LEASE_CHECK_MS = 1_000;
/** The due counts of a scrape are reused this long (one query for all the lane gauges). */
const DUE_SNAPSHOT_MS = 1_000;

/** The Message-ID of the mail of one outbox row: the same on every attempt. */
export function outboxMessageId(rowUuid: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<outbox-${rowUuid}@${domain}>`;
}

function mailOf(payload: Record<string, unknown>): MailMessage {
  const { to, subject, text, html, secrets } = payload;
  if (typeof to !== 'string' || typeof subject !== 'string' || typeof text !== 'string') {
    throw new PermanentDeliveryError('mail payload needs string to, subject and text');
  }
  const kept = Array.isArray(secrets)
    ? secrets.filter((secret): secret is string => typeof secret === 'string')
    : [];
  return {
    to,
    subject,
    text,
    ...(typeof html === 'string' ? { html } : {}),
    ...(kept.length ? { secrets: kept } : {}),
  };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Delivers the outbox, through which every mail, webhook and guest message
 * leaves. Runs in every process, one lane per kind (OutboxLane): a lane
 * claims due rows it can start (SKIP LOCKED, see OutboxRepository.claimDue),
 * hands each to the handler of its kind, then marks it sent, or schedules a
 * retry with back-off, or after OUTBOX_MAX_ATTEMPTS marks it failed and keeps
 * it. A lane wakes when a commit writes a row due now (OutboxSignal) and
 * every OUTBOX_POLL_INTERVAL_MS; drain() lets tests deliver at once.
 */
// R25: mail through the outbox. R77: one receiver never holds back another.
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Outbox');
  private readonly handlers = new Map<OutboxKind, OutboxHandler>();
  private readonly lanes = new Map<OutboxLaneName, OutboxLane>();
  /** Rows whose lease this process keeps renewing: claimed, their outcome not yet being written. */
  private readonly leased = new Set<string>();
  private renewing: Promise<void> = Promise.resolve();
  /** When the leases were last renewed (or the worker started), by the service's clock. */
  private leasesRenewedAt = 0;
  private settleWaiters: Array<() => void> = [];
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: Array<() => void> = [];
  private dueSnapshot: { at: number; due: Promise<DueByKind[]> } | undefined;
  private stopped = false;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
    private readonly signal: OutboxSignal,
    mail: MailPort,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.registerHandler('mail', (payload, row) =>
      mail.send({ ...mailOf(payload), messageId: outboxMessageId(row.uuid, config.mailFrom) }),
    );
    for (const name of OUTBOX_LANES) {
      this.lanes.set(
        name,
        new OutboxLane(name, config.outboxLanes[name], kindsOfLane(name), {
          claim: (request) => {
            const now = this.clock.now();
            const leaseUntil = new Date(now.getTime() + OUTBOX_LEASE_MS);
            return this.repository.claimDue(now, leaseUntil, request);
          },
          deliver: (lane, row) => this.deliver(lane, row),
          settled: () => this.settled(),
          warn: (message) => this.logger.warn(message),
        }),
      );
    }
  }

  /** Who performs rows of `kind`; a later registration replaces an earlier one. */
  registerHandler(kind: OutboxKind, handler: OutboxHandler): void {
    this.handlers.set(kind, handler);
  }

  onApplicationBootstrap(): void {
    this.unsubscribe.push(
      this.signal.onDue((lane) => this.lanes.get(lane)?.wake()),
      trackOutboxLanes({ snapshot: () => this.snapshot() }),
    );
    const poll = setInterval(() => this.wakeAll(), this.config.outboxPollIntervalMs);
    this.leasesRenewedAt = this.clock.nowMs();
    const renew = setInterval(() => this.renewLeasesWhenDue(), LEASE_CHECK_MS);
    poll.unref();
    renew.unref();
    this.timers.push(poll, renew);
    // Rows that came due while no process ran.
    this.wakeAll();
  }

  /** Before the database closes (that happens in onApplicationShutdown): no new claim, finish what runs. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    for (const lane of this.lanes.values()) lane.stop();
    await Promise.all([...this.lanes.values()].map((lane) => lane.idle()));
    await this.renewing;
  }

  /**
   * Delivers every row that is due now in every lane, as the lanes would
   * (bounded, capped per receiver), and resolves when none is left and
   * nothing is in flight (rows waiting for a retry later are left alone).
   * Returns the number of rows this call claimed.
   */
  async drain(): Promise<number> {
    let claimed = 0;
    for (;;) {
      let exhausted = true;
      for (const lane of this.lanes.values()) {
        const fill = await lane.fill();
        claimed += fill.started;
        exhausted &&= fill.exhausted;
      }
      // A full lane claims again as its deliveries finish: wait for one, then look again.
      if (exhausted && this.inFlightCount() === 0) return claimed;
      await this.nextSettled();
    }
  }

  private wakeAll(): void {
    if (this.stopped) return;
    for (const lane of this.lanes.values()) lane.wake();
  }

  private inFlightCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.inFlightCount;
    return count;
  }

  private settled(): void {
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private nextSettled(): Promise<void> {
    if (this.inFlightCount() === 0) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  /**
   * Renews the leases every LEASE_RENEW_MS of the service's clock (a clock
   * set back renews at once and counts from there).
   */
  private renewLeasesWhenDue(): void {
    const now = this.clock.nowMs();
    const since = now - this.leasesRenewedAt;
    if (since >= 0 && since < LEASE_RENEW_MS) return;
    this.leasesRenewedAt = now;
    this.renewLeases();
  }

  /** Every claimed row still in delivery keeps its lease, so no other process takes a row this one will send. */
  private renewLeases(): void {
    if (this.leased.size === 0) return;
    const uuids = [...this.leased];
    // One after the other: a delivery that finished waits for every renewal that named its row.
    this.renewing = this.renewing.then(() =>
      this.repository
        .renewLeases(uuids, new Date(this.clock.nowMs() + OUTBOX_LEASE_MS))
        .catch((error: unknown) =>
          this.logger.warn(`Outbox leases not renewed: ${reasonOf(error)}`),
        ),
    );
  }

  private async deliver(lane: OutboxLaneName, row: ClaimedRow): Promise<void> {
    this.leased.add(row.uuid);
    const started = performance.now();
    const handler = this.handlers.get(row.kind);
    let failure: { error: unknown } | undefined;
    try {
      if (!handler) throw new Error(`no handler registered for outbox kind "${row.kind}"`);
      await handler(row.payload, { uuid: row.uuid, attempts: row.attempts });
    } catch (error) {
      failure = { error };
    }
    const seconds = (performance.now() - started) / 1000;
    // From here the outcome is written: a renewal already under way finishes first, none follows.
    this.leased.delete(row.uuid);
    await this.renewing;
    if (!failure) {
      await this.repository.markSent(row.uuid, this.clock.now());
      recordDelivery(lane, 'sent', seconds);
    } else {
      recordDelivery(lane, await this.failed(row, failure.error), seconds);
    }
  }

  private async failed(row: ClaimedRow, error: unknown): Promise<'retry' | 'failed'> {
    const reason = reasonOf(error);
    if (error instanceof PermanentDeliveryError || row.attempts >= OUTBOX_MAX_ATTEMPTS) {
      this.logger.error(`Outbox ${row.kind} ${row.uuid} failed for good: ${reason}`);
      await this.repository.markFailed(row.uuid, reason);
      return 'failed';
    }
    const retryAt = new Date(this.clock.nowMs() + retryDelayMs(row.attempts));
    this.logger.warn(
      `Outbox ${row.kind} ${row.uuid} attempt ${row.attempts} failed (${reason}); retry at ${retryAt.toISOString()}`,
    );
    await this.repository.scheduleRetry(row.uuid, retryAt, reason);
    return 'retry';
  }

  /** Each lane's figures for /metrics: due rows from the database, the rest from this process. */
  private async snapshot(): Promise<LaneSnapshot[]> {
    const nowMs = this.clock.nowMs();
    if (!this.dueSnapshot || nowMs - this.dueSnapshot.at > DUE_SNAPSHOT_MS) {
      this.dueSnapshot = { at: nowMs, due: this.repository.dueByKind(new Date(nowMs)) };
    }
    const due = await this.dueSnapshot.due.catch(() => undefined);
    return [...this.lanes.values()].map((lane) => {
      const rows = due?.filter((entry) => laneOfKind(entry.kind) === lane.name);
      return {
        lane: lane.name,
        due: rows?.reduce((sum, entry) => sum + entry.due, 0),
        oldestDueSeconds: rows?.reduce((max, entry) => Math.max(max, entry.oldestDueSeconds), 0),
        inFlight: lane.inFlightCount,
        concurrency: lane.settings.concurrency,
        receiversAtCap: lane.receiversAtCap,
      };
    });
  }
}
