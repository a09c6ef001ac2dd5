import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Request, Response } from 'express';
import { trackStreams } from '../../metrics/metrics';
import { OrderStreamEvent, sseFrame } from './order-stream-event';

interface StreamClient {
  /** The owner whose orders it follows, or the one order a guest follows. */
  key: string;
  kind: 'owner' | 'guest';
  res: Response;
  heartbeat: NodeJS.Timeout;
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

  open(ownerUuid: string, req: Request, res: Response): void {
    this.start({ key: ownerUuid, kind: 'owner' }, req, res);
  }

  /** A guest's stream of one order: only its `order.updated` events. */
  openForOrder(orderUuid: string, req: Request, res: Response): void {
    this.start({ key: orderUuid, kind: 'guest' }, req, res);
  }

  private start(who: Pick<StreamClient, 'key' | 'kind'>, req: Request, res: Response): void {
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
