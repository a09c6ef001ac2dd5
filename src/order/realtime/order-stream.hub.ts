import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Request, Response } from 'express';
import { AuthUser } from '../../auth/auth.decorator';
import { CredentialChecks, HeldCredential, heldCredentialOf } from '../../auth/credential-checks';
import { trackStreams } from '../../metrics/metrics';
import { AccessPolicy, MembershipChanges } from '../../team';
import { OrderStreamEvent, sseFrame } from './order-stream-event';

interface StreamClient {
  /** The owner whose orders it follows, or the one order a guest follows. */
  key: string;
  kind: 'owner' | 'guest' | 'tab';
  res: Response;
  heartbeat: NodeJS.Timeout;
  /** What an inbox stream was opened with, checked again while it is open. */
  credential?: HeldCredential;
  /** The businesses an inbox stream follows as a member (manager or staff), not as owner. */
  memberOf?: Set<string>;
  /** Only this business's orders, when the stream was opened with `business_uuid`. */
  only?: string;
}

export interface InboxStreamScope {
  /** The businesses the user works for whose orders they may read. */
  memberOf: string[];
  /** Narrows the stream to one business. */
  only?: string;
}

/** A client that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * This process's open order streams: the inboxes' (every event of the orders
 * of the businesses the user owns or works for) and the guests'
 * (`order.updated` of their one order). Events reach it from PostgreSQL
 * NOTIFY (server database) or from this process after commit (embedded); it
 * writes each to the streams of the order's owner, of the members of its
 * business, and of that order's guests only.
 */
// R66: stream re-check.
@Injectable()
export class OrderStreamHub implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('OrderStream');
  private readonly clients = new Map<string, Set<StreamClient>>();
  private readonly guests = new Map<string, Set<StreamClient>>();
  /** A tab's party: every event of its rounds (a new round, a change of one). */
  private readonly tabParties = new Map<string, Set<StreamClient>>();
  /** Inbox streams by a business they follow as a member. */
  private readonly members = new Map<string, Set<StreamClient>>();
  private closing = false;
  /** The sse_streams_open gauge reads `size` at each scrape while this hub lives. */
  private readonly untrackStreams = trackStreams(this);

  /** Comment lines keep proxies and browsers from timing an idle stream out. */
  heartbeatMs = 15_000;
  /**
   * How often the inbox streams are checked again: a stream ends within
   * this (plus one check) of its token's expiry or a password change or
   * reset, as every other request with that token would be refused from
   * then on, and of its user no longer working for a business it follows
   * (removed, left, or a role that may not read orders). A membership change
   * announced by any process starts a check at once.
   */
  recheckMs = 2_000;
  private recheckTimer: NodeJS.Timeout | undefined;
  private rechecking = false;
  private recheckAgain = false;
  private unsubscribeChanges: (() => void) | undefined;

  constructor(
    private readonly credentials: CredentialChecks,
    private readonly access: AccessPolicy,
    private readonly membershipChanges: MembershipChanges,
  ) {}

  onModuleInit(): void {
    this.unsubscribeChanges = this.membershipChanges.onChange((userUuid) => {
      if (this.clients.has(userUuid)) void this.recheck();
    });
  }

  /** A user's inbox stream: their own businesses' orders and those of `scope.memberOf`. */
  open(user: AuthUser, req: Request, res: Response, scope?: InboxStreamScope): void {
    this.start(
      {
        key: user.uuid,
        kind: 'owner',
        credential: heldCredentialOf(user),
        memberOf: new Set(scope?.memberOf ?? []),
        only: scope?.only,
      },
      req,
      res,
    );
    this.recheckTimer ??= setInterval(() => void this.recheck(), this.recheckMs);
    this.recheckTimer.unref();
  }

  /** A guest's stream of one order: only its `order.updated` events. */
  openForOrder(orderUuid: string, req: Request, res: Response): void {
    this.start({ key: orderUuid, kind: 'guest' }, req, res);
  }

  /** A tab's party's stream: the events of its rounds. */
  openForTab(tabUuid: string, req: Request, res: Response): void {
    this.start({ key: tabUuid, kind: 'tab' }, req, res);
  }

  private start(
    who: Pick<StreamClient, 'key' | 'kind' | 'credential' | 'memberOf' | 'only'>,
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
    for (const business of client.memberOf ?? []) this.follow(client, business);
    res.on('close', () => this.remove(client));
    // Registered before this line is written, so a client that has read it misses nothing.
    res.write('retry: 5000\n: connected\n\n');
  }

  /**
   * Writes the event to this process's streams of its owner and of the
   * members of its business, and of the order's guests for an update.
   */
  deliver(event: OrderStreamEvent): void {
    const business = event.order.business_uuid;
    const targets = new Set<StreamClient>();
    for (const client of this.clients.get(event.ownerUuid) ?? []) targets.add(client);
    for (const client of this.members.get(business) ?? []) targets.add(client);
    for (const client of targets)
      if (client.only && client.only !== business) targets.delete(client);
    if (event.type === 'order.updated') {
      for (const client of this.guests.get(event.order.uuid) ?? []) targets.add(client);
    }
    if (event.tabUuid) {
      for (const client of this.tabParties.get(event.tabUuid) ?? []) targets.add(client);
    }
    if (targets.size === 0) return;
    const frame = sseFrame(event);
    for (const client of targets) this.write(client, frame);
  }

  /**
   * Reads the memberships of every user with an open inbox stream (one
   * query) and ends each stream that follows a business its user may no
   * longer read the orders of, telling it why; businesses joined meanwhile
   * are followed from now on.
   */
  private async recheckMemberships(): Promise<void> {
    if (this.clients.size === 0) return;
    try {
      const now = await this.access.memberBusinessesOf([...this.clients.keys()], 'order.read');
      for (const [userUuid, owned] of [...this.clients]) {
        const current = now.get(userUuid) ?? new Set<string>();
        for (const client of [...owned]) {
          const lost = [...(client.memberOf ?? [])].some((business) => !current.has(business));
          if (lost) {
            this.end(client, 'membership_changed');
            continue;
          }
          for (const business of current) {
            if (!client.memberOf?.has(business)) this.follow(client, business);
          }
        }
      }
    } catch (error) {
      // A check that cannot be made (the database away) ends nothing; the next one will.
      this.logger.warn(`Checking the order streams' memberships failed: ${String(error)}`);
    }
  }

  /** How many streams are open in this process. */
  get size(): number {
    let count = 0;
    for (const map of [this.clients, this.guests, this.tabParties]) {
      for (const owned of map.values()) count += owned.size;
    }
    return count;
  }

  /** Ends every stream so the HTTP server can close (it waits for open connections). */
  onModuleDestroy(): void {
    this.closing = true;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.unsubscribeChanges?.();
    this.members.clear();
    this.untrackStreams();
    for (const map of [this.clients, this.guests, this.tabParties]) {
      for (const owned of map.values()) {
        for (const client of owned) {
          clearInterval(client.heartbeat);
          client.res.end();
        }
      }
      map.clear();
    }
  }

  /**
   * Ends the inbox streams whose credential no longer holds, or that follow a
   * business their user no longer works for, telling each why.
   */
  async recheck(): Promise<void> {
    if (this.rechecking) {
      // A change announced during a check may have been read before it: check once more after.
      this.recheckAgain = true;
      return;
    }
    if (this.clients.size === 0) return;
    this.rechecking = true;
    try {
      const owners = [...this.clients.values()].flatMap((owned) => [...owned]);
      const revoked = await this.credentials.revoked(
        owners.map((client) => client.credential!),
        Date.now(),
      );
      for (const client of owners) {
        const reason = revoked.get(client.credential!);
        if (reason !== undefined) this.end(client, reason);
      }
    } catch (error) {
      // A check that cannot be made (the database away) ends nothing; the next one will.
      this.logger.warn(`Checking the order streams' credentials failed: ${String(error)}`);
    }
    try {
      await this.recheckMemberships();
    } finally {
      this.rechecking = false;
    }
    if (this.recheckAgain) {
      this.recheckAgain = false;
      await this.recheck();
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

  private follow(client: StreamClient, business: string): void {
    (client.memberOf ??= new Set()).add(business);
    let followers = this.members.get(business);
    if (!followers) this.members.set(business, (followers = new Set()));
    followers.add(client);
  }

  /** Ends a stream with a last `stream.closed` event saying why. */
  private end(client: StreamClient, reason: string): void {
    if (!client.res.writableEnded && !client.res.destroyed) {
      client.res.write(`event: stream.closed\ndata: ${JSON.stringify({ reason })}\n\n`);
      client.res.end();
    }
    this.remove(client);
  }

  private remove(client: StreamClient): void {
    clearInterval(client.heartbeat);
    for (const business of client.memberOf ?? []) {
      const followers = this.members.get(business);
      followers?.delete(client);
      if (followers?.size === 0) this.members.delete(business);
    }
    const map = this.mapOf(client);
    const owned = map.get(client.key);
    if (!owned) return;
    owned.delete(client);
    if (owned.size === 0) map.delete(client.key);
  }

  private mapOf(client: Pick<StreamClient, 'kind'>): Map<string, Set<StreamClient>> {
    if (client.kind === 'tab') return this.tabParties;
    return client.kind === 'owner' ? this.clients : this.guests;
  }
}
