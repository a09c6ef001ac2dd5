import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Request, Response } from 'express';
import { AuthUser } from '../../auth/auth.decorator';
import { CredentialChecks, HeldCredential, heldCredentialOf } from '../../auth/credential-checks';
import { trackStreams } from '../../metrics/metrics';
import { OrderStreamEvent, sseFrame } from './order-stream-event';

interface StreamClient {
  /** The owner whose orders it follows, or the one order a guest follows. */
  key: string;
  kind: 'owner' | 'guest';
  res: Response;
  heartbeat: NodeJS.Timeout;
  /** What an owner's stream was opened with, checked again while it is open. */
  credential?: HeldCredential;
}

/** A client that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * This process's open order streams: the owners' (every event of their
 * orders) and the guests' (`order.updated` of their one order). Events reach
 * it from PostgreSQL NOTIFY (server database) or from this process after
 * commit (embedded); it writes each to the streams of the order's owner and
 * of that order's guests only.
 */
@Injectable()
export class OrderStreamHub implements OnModuleDestroy {
  private readonly logger = new Logger('OrderStream');
  private readonly clients = new Map<string, Set<StreamClient>>();
  private readonly guests = new Map<string, Set<StreamClient>>();
  private closing = false;
  /** The sse_streams_open gauge reads `size` at each scrape while this hub lives. */
  private readonly untrackStreams = trackStreams(this);

  /** Comment lines keep proxies and browsers from timing an idle stream out. */
  heartbeatMs = 15_000;
  /**
   * How often the owners' streams have their credentials checked again: a
   * stream ends within this (plus one check) of its token's expiry or a
   * password change or reset, as every other request with that token would
   * be refused from then on.
   */
  recheckMs = 2_000;
  private recheckTimer: NodeJS.Timeout | undefined;
  private rechecking = false;

  constructor(private readonly credentials: CredentialChecks) {}

  open(user: AuthUser, req: Request, res: Response): void {
    this.start({ key: user.uuid, kind: 'owner', credential: heldCredentialOf(user) }, req, res);
    this.recheckTimer ??= setInterval(() => void this.recheck(), this.recheckMs);
    this.recheckTimer.unref();
  }

  /** A guest's stream of one order: only its `order.updated` events. */
  openForOrder(orderUuid: string, req: Request, res: Response): void {
    this.start({ key: orderUuid, kind: 'guest' }, req, res);
  }

  private start(
    who: Pick<StreamClient, 'key' | 'kind' | 'credential'>,
    req: Request,
    res: Response,
  ): void {
    if (this.closing) {
      res.status(503).set('Retry-After', '5').end();
      return;
    }
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true);
    const client: StreamClient = {
      ...who,
      res,
      heartbeat: setInterval(() => this.write(client, ': heartbeat\n\n'), this.heartbeatMs),
    };
    const map = this.mapOf(client);
    let owned = map.get(client.key);
    if (!owned) map.set(client.key, (owned = new Set()));
    owned.add(client);
    res.on('close', () => this.remove(client));
    // Registered before this line is written, so a client that has read it misses nothing.
    res.write('retry: 5000\n: connected\n\n');
  }

  /** Writes the event to this process's streams of its owner, and of the order's guests for an update. */
  deliver(event: OrderStreamEvent): void {
    const targets = [...(this.clients.get(event.ownerUuid) ?? [])];
    if (event.type === 'order.updated') targets.push(...(this.guests.get(event.order.uuid) ?? []));
    if (targets.length === 0) return;
    const frame = sseFrame(event);
    for (const client of targets) this.write(client, frame);
  }

  /** How many streams are open in this process. */
  get size(): number {
    let count = 0;
    for (const map of [this.clients, this.guests]) {
      for (const owned of map.values()) count += owned.size;
    }
    return count;
  }

  /** Ends every stream so the HTTP server can close (it waits for open connections). */
  onModuleDestroy(): void {
    this.closing = true;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.untrackStreams();
    for (const map of [this.clients, this.guests]) {
      for (const owned of map.values()) {
        for (const client of owned) {
          clearInterval(client.heartbeat);
          client.res.end();
        }
      }
      map.clear();
    }
  }

  /** Ends the owners' streams whose credential no longer holds, telling each why. */
  async recheck(): Promise<void> {
    if (this.rechecking || this.clients.size === 0) return;
    this.rechecking = true;
    try {
      const owners = [...this.clients.values()].flatMap((owned) => [...owned]);
      const revoked = await this.credentials.revoked(
        owners.map((client) => client.credential!),
        Date.now(),
      );
      for (const client of owners) {
        const reason = revoked.get(client.credential!);
        if (reason === undefined) continue;
        if (!client.res.writableEnded && !client.res.destroyed) {
          client.res.write(`event: stream.closed\ndata: ${JSON.stringify({ reason })}\n\n`);
          client.res.end();
        }
        this.remove(client);
      }
    } catch (error) {
      // A check that cannot be made (the database away) ends nothing; the next one will.
      this.logger.warn(`Checking the order streams' credentials failed: ${String(error)}`);
    } finally {
      this.rechecking = false;
    }
  }

  private write(client: StreamClient, frame: string): void {
    if (client.res.writableEnded || client.res.destroyed) {
      this.remove(client);
      return;
    }
    if (client.res.writableLength > MAX_BUFFERED_BYTES) {
      this.logger.warn(`Dropping an order stream of ${client.key} that is not being read`);
      client.res.destroy();
      this.remove(client);
      return;
    }
    client.res.write(frame);
  }

  private remove(client: StreamClient): void {
    clearInterval(client.heartbeat);
    const map = this.mapOf(client);
    const owned = map.get(client.key);
    if (!owned) return;
    owned.delete(client);
    if (owned.size === 0) map.delete(client.key);
  }

  private mapOf(client: Pick<StreamClient, 'kind'>): Map<string, Set<StreamClient>> {
    return client.kind === 'owner' ? this.clients : this.guests;
  }
}
