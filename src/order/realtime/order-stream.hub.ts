import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Request, Response } from 'express';
import { trackStreams } from '../../metrics/metrics';
import { OrderStreamEvent, sseFrame } from './order-stream-event';

interface StreamClient {
  ownerUuid: string;
  res: Response;
  heartbeat: NodeJS.Timeout;
}

/** A client that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * This process's open order streams (D24), by owner. Events reach it from
 * PostgreSQL NOTIFY (server database) or from this process after commit
 * (embedded); it writes each to the streams of the order's owner only.
 */
@Injectable()
export class OrderStreamHub implements OnModuleDestroy {
  private readonly logger = new Logger('OrderStream');
  private readonly clients = new Map<string, Set<StreamClient>>();
  private closing = false;
  /** The sse_streams_open gauge reads `size` at each scrape while this hub lives. */
  private readonly untrackStreams = trackStreams(this);

  /** Comment lines keep proxies and browsers from timing an idle stream out. */
  heartbeatMs = 15_000;

  open(ownerUuid: string, req: Request, res: Response): void {
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
      ownerUuid,
      res,
      heartbeat: setInterval(() => this.write(client, ': heartbeat\n\n'), this.heartbeatMs),
    };
    let owned = this.clients.get(ownerUuid);
    if (!owned) this.clients.set(ownerUuid, (owned = new Set()));
    owned.add(client);
    res.on('close', () => this.remove(client));
    // Registered before this line is written, so a client that has read it misses nothing.
    res.write('retry: 5000\n: connected\n\n');
  }

  /** Writes the event to this process's streams of its owner. */
  deliver(event: OrderStreamEvent): void {
    const owned = this.clients.get(event.ownerUuid);
    if (!owned) return;
    const frame = sseFrame(event);
    for (const client of [...owned]) this.write(client, frame);
  }

  /** How many streams are open in this process. */
  get size(): number {
    let count = 0;
    for (const owned of this.clients.values()) count += owned.size;
    return count;
  }

  /** Ends every stream so the HTTP server can close (it waits for open connections). */
  onModuleDestroy(): void {
    this.closing = true;
    this.untrackStreams();
    for (const owned of this.clients.values()) {
      for (const client of owned) {
        clearInterval(client.heartbeat);
        client.res.end();
      }
    }
    this.clients.clear();
  }

  private write(client: StreamClient, frame: string): void {
    if (client.res.writableEnded || client.res.destroyed) {
      this.remove(client);
      return;
    }
    if (client.res.writableLength > MAX_BUFFERED_BYTES) {
      this.logger.warn(`Dropping an order stream of ${client.ownerUuid} that is not being read`);
      client.res.destroy();
      this.remove(client);
      return;
    }
    client.res.write(frame);
  }

  private remove(client: StreamClient): void {
    clearInterval(client.heartbeat);
    const owned = this.clients.get(client.ownerUuid);
    if (!owned) return;
    owned.delete(client);
    if (owned.size === 0) this.clients.delete(client.ownerUuid);
  }
}
