import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Client, Notification } from 'pg';
import { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { CHANNEL_OF, parseOrderStreamEvent } from './order-stream-event';
import { OrderStreamHub } from './order-stream.hub';

const CHANNELS = Object.values(CHANNEL_OF);
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Fan-out across processes (DESIGN: realtime): on a PostgreSQL server each
 * process LISTENs on its own connection, outside the pool, and hands every
 * order event to its hub. NOTIFY is sent inside the writing transaction, so
 * PostgreSQL delivers it only at commit and never for a rollback.
 *
 * Not used on the embedded database: it serves one process over one
 * connection, and that process publishes to its hub after commit itself.
 * Events sent while the connection is being re-established are missed; the
 * client reloads the inbox when its EventSource reconnects.
 */
@Injectable()
export class OrderNotifyListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OrderStream');
  private client: Client | undefined;
  private retryMs = FIRST_RETRY_MS;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly hub: OrderStreamHub,
  ) {}

  /** Listening before the app answers, so no order placed after start-up is missed. */
  async onModuleInit(): Promise<void> {
    if (this.config.databaseUrl) await this.connect();
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
      application_name: 'order-stream-listener',
    });
    client.on('notification', (message: Notification) => this.onNotification(message));
    client.on('error', (error: Error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
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

  private onNotification(message: Notification): void {
    const event = parseOrderStreamEvent(message.payload);
    if (!event) {
      this.logger.warn(`Ignoring a malformed event on channel ${message.channel}`);
      return;
    }
    this.hub.deliver(event);
  }

  private lost(client: Client, error?: Error): void {
    if (this.stopped || client !== this.client) return;
    this.client = undefined;
    client.removeAllListeners();
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.logger.warn(
      `Order event connection lost${error ? `: ${error.message}` : ''}; reconnecting`,
    );
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.retryTimer = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        this.logger.warn(`Reconnecting the order event connection failed: ${String(error)}`);
        this.scheduleReconnect();
      });
    }, delay);
    this.retryTimer.unref();
  }
}
