import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Client, Notification } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { keepPlan } from './kept-plans';
import { preparedQuery } from './prepared-query';
import { execute, noTables, rowsTable, sql } from './query-builder';
import { writeBeforeCommit } from './writes-before-commit';

type Handler = (payload: string) => void;

const CHANNEL = /^[a-z][a-z0-9_]{0,62}$/;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/** One NOTIFY as a statement (prepared: sent with each change a cache must hear of). */
const notifyOne = preparedQuery(({ channel, payload }: { channel: string; payload: string }) =>
  noTables.selectNoFrom(sql`pg_notify(${channel}, ${payload})`.as('notified')),
);

/**
 * Fan-out between the processes of the service through PostgreSQL
 * LISTEN/NOTIFY, so realtime events reach every process. Each process LISTENs on one
 * connection of its own, outside the pool, and hands every notification to
 * the handlers of its channel. A NOTIFY sent inside a transaction is held by
 * PostgreSQL until commit and dropped on rollback.
 *
 * Only on a PostgreSQL server (`enabled`): the embedded database serves one
 * process over one connection, so its callers act locally instead.
 * Notifications sent while the connection is being re-established are missed.
 */
@Injectable()
export class PgNotifications implements OnModuleDestroy {
  readonly enabled: boolean;
  private readonly logger = new Logger('PgNotifications');
  private readonly handlers = new Map<string, Handler[]>();
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    this.enabled = Boolean(config.databaseUrl);
  }

  /**
   * Calls `handler` with the payload of every notification on `channel`, from
   * any process. Resolves once this process is listening, so call it from
   * onModuleInit to miss nothing sent after start-up.
   */
  async subscribe(channel: string, handler: Handler): Promise<void> {
    if (!this.enabled) return;
    if (!CHANNEL.test(channel)) throw new Error(`Not a channel name: ${channel}`);
    const known = this.handlers.get(channel);
    if (known) {
      known.push(handler);
      return;
    }
    this.handlers.set(channel, [handler]);
    await (this.connecting ??= this.connect());
    if (this.client) await this.client.query(`LISTEN ${channel}`);
  }

  /** NOTIFY through `manager` (inside a transaction: delivered at its commit) or the pool. */
  async publish(channel: string, payload: string, manager?: EntityManager): Promise<void> {
    if (!this.enabled) return;
    // No table: its plan may be kept.
    const notify = keepPlan(notifyOne({ channel, payload }));
    if (manager) await writeBeforeCommit(manager, notify);
    else await execute(this.dataSource.manager, notify);
  }

  /**
   * NOTIFY each of `payloads` on `channel`, in their order, with one
   * statement: inside a transaction it is held and sent with the
   * transaction's other held writes (delivered at its commit).
   */
  async publishAll(
    channel: string,
    payloads: readonly string[],
    manager?: EntityManager,
  ): Promise<void> {
    if (!this.enabled || payloads.length === 0) return;
    // No table: its plan may be kept.
    const notify = keepPlan(
      noTables
        .selectFrom(
          rowsTable(
            payloads.map((payload) => ({ payload })),
            { payload: 'text' },
            'p',
          ),
        )
        .select(sql`pg_notify(${channel}, p.payload)`.as('notified')),
    );
    if (manager) await writeBeforeCommit(manager, notify);
    else await execute(this.dataSource.manager, notify);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.databaseUrl,
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
      application_name: 'menu-service-listener',
    });
    client.on('notification', (message: Notification) => this.dispatch(message));
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
  }

  private dispatch(message: Notification): void {
    for (const handler of this.handlers.get(message.channel) ?? []) {
      try {
        handler(message.payload ?? '');
      } catch (error) {
        this.logger.warn(`A handler of ${message.channel} failed: ${String(error)}`);
      }
    }
  }

  private lost(client: Client, error?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.logger.warn(
      `Notification connection lost${error ? `: ${error.message}` : ''}; reconnecting`,
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.connecting = this.connect().catch((error: unknown) => {
        this.logger.warn(`Reconnecting the notification connection failed: ${String(error)}`);
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }
}
