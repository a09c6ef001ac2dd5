import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { MailMessage, MailPort } from '../mail/mail.port';
import { OutboxKind } from './outbox.entity';
import { ClaimedRow, OutboxRepository } from './outbox.repository';
import { OUTBOX_MAX_ATTEMPTS, PermanentDeliveryError, retryDelayMs } from './outbox-retry';

/** Performs one outbox row; throw to have it retried (PermanentDeliveryError: failed at once). */
export type OutboxHandler = (
  payload: Record<string, unknown>,
  row: { uuid: string; attempts: number },
) => Promise<void>;

const POLL_INTERVAL_MS = 1_000;
const BATCH_SIZE = 20;
/**
 * How long a claimed row is kept from other processes. Short, so rows a
 * crashed process had claimed are sent again about a minute after; a slow
 * delivery renews it every LEASE_RENEW_MS while it runs.
 */
export const OUTBOX_LEASE_MS = 60_000;
const LEASE_RENEW_MS = 20_000;

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
 * Delivers the outbox, through which every mail leaves. Runs in every
 * process: each poll claims due rows (SKIP LOCKED, see
 * OutboxRepository.claimDue), hands each to the handler of its kind, then
 * marks it sent, or schedules a retry with back-off, or after
 * OUTBOX_MAX_ATTEMPTS marks it failed and keeps it.
 *
 * Passes never overlap within a process; drain() lets tests deliver at once.
 */
@Injectable()
export class OutboxWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Outbox');
  private readonly handlers = new Map<OutboxKind, OutboxHandler>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
    mail: MailPort,
    @InjectConfig() config: AppConfig,
  ) {
    this.registerHandler('mail', (payload, row) =>
      mail.send({ ...mailOf(payload), messageId: outboxMessageId(row.uuid, config.mailFrom) }),
    );
  }

  /** Who performs rows of `kind`; a later registration replaces an earlier one. */
  registerHandler(kind: OutboxKind, handler: OutboxHandler): void {
    this.handlers.set(kind, handler);
  }

  onApplicationBootstrap(): void {
    this.schedule();
  }

  /** Before the database closes (that happens in onApplicationShutdown): no new pass, finish the current one. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.chain;
  }

  /**
   * Delivers every row that is due now, pass after pass, and resolves when
   * none is left (rows waiting for a retry later are left alone). Returns the
   * number of rows attempted.
   */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.runPass();
      total += claimed;
      if (claimed === 0) return total;
    }
  }

  /** One pass, queued behind any pass in progress. */
  runPass(): Promise<number> {
    const pass = this.chain.then(() => (this.stopped ? 0 : this.deliverDue()));
    this.chain = pass.catch(() => undefined);
    return pass;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.drain()
        .catch((error: unknown) => this.logger.error(`Outbox pass failed: ${reasonOf(error)}`))
        .finally(() => this.schedule());
    }, POLL_INTERVAL_MS);
    this.timer.unref();
  }

  private async deliverDue(): Promise<number> {
    const now = this.clock.now();
    const rows = await this.repository.claimDue(
      now,
      new Date(now.getTime() + OUTBOX_LEASE_MS),
      BATCH_SIZE,
    );
    // Every claimed row still waiting or in delivery keeps its lease while a
    // slow send runs, so no other process takes a row this one will send.
    const open = new Set(rows.map((row) => row.uuid));
    const renewal = setInterval(() => {
      if (open.size === 0) return;
      this.repository
        .renewLeases([...open], new Date(this.clock.nowMs() + OUTBOX_LEASE_MS))
        .catch((error: unknown) =>
          this.logger.warn(`Outbox leases not renewed: ${reasonOf(error)}`),
        );
    }, LEASE_RENEW_MS);
    renewal.unref();
    try {
      for (const row of rows) {
        await this.deliver(row);
        open.delete(row.uuid);
      }
    } finally {
      clearInterval(renewal);
    }
    return rows.length;
  }

  private async deliver(row: ClaimedRow): Promise<void> {
    const handler = this.handlers.get(row.kind);
    try {
      if (!handler) throw new Error(`no handler registered for outbox kind "${row.kind}"`);
      await handler(row.payload, { uuid: row.uuid, attempts: row.attempts });
    } catch (error) {
      await this.failed(row, error);
      return;
    }
    await this.repository.markSent(row.uuid, this.clock.now());
  }

  private async failed(row: ClaimedRow, error: unknown): Promise<void> {
    const reason = reasonOf(error);
    if (error instanceof PermanentDeliveryError || row.attempts >= OUTBOX_MAX_ATTEMPTS) {
      this.logger.error(`Outbox ${row.kind} ${row.uuid} failed for good: ${reason}`);
      await this.repository.markFailed(row.uuid, reason);
      return;
    }
    const retryAt = new Date(this.clock.nowMs() + retryDelayMs(row.attempts));
    this.logger.warn(
      `Outbox ${row.kind} ${row.uuid} attempt ${row.attempts} failed (${reason}); retry at ${retryAt.toISOString()}`,
    );
    await this.repository.scheduleRetry(row.uuid, retryAt, reason);
  }
}
