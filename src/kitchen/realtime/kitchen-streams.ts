import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Request, Response } from 'express';
import { AuthUser } from '../../auth/auth.decorator';
import { CredentialChecks, HeldCredential, heldCredentialOf } from '../../auth/credential-checks';
import { Transaction } from '../../database/event-bus';
import { PgNotifications } from '../../database/pg-notifications';
import { AccessPolicy, MembershipChanges, roleAllows } from '../../team';
import { TicketResponseDto, toTicketResponse } from '../dto/ticket.dto';
import { KitchenRepository, Ticket } from '../kitchen.repository';

export type TicketEventType = 'ticket.created' | 'ticket.updated';

/** What travels between processes: the ticket is read again by each process that has a listener. */
interface TicketNotice {
  id: string;
  type: TicketEventType;
  business_uuid: string;
  ticket_uuid: string;
}

interface StationClient {
  business: string;
  station?: string;
  res: Response;
  heartbeat: NodeJS.Timeout;
  credential: HeldCredential;
}

const CHANNEL = 'kitchen_ticket';
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * The station streams: `ticket.created` and `ticket.updated` with the whole
 * ticket, to every process's streams of the ticket's business (and
 * station). On a PostgreSQL server a change is NOTIFYed in its transaction
 * (delivered at commit to every process, never for a rollback) and each
 * process reads the ticket once for its listeners; on the embedded database
 * the one process delivers after commit. Streams are checked again every
 * 2 seconds, and at once on a membership change: one whose token no longer
 * holds or whose user no longer works for the business ends with
 * `stream.closed` saying why.
 */
// R88: station streams end with their credential.
@Injectable()
export class KitchenStreams implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('KitchenStream');
  private readonly clients = new Map<string, Set<StationClient>>();
  private closing = false;
  private recheckTimer: NodeJS.Timeout | undefined;
  private rechecking = false;
  private unsubscribe: (() => void) | undefined;
  heartbeatMs = 15_000;
  recheckMs = 2_000;

  constructor(
    private readonly notifications: PgNotifications,
    private readonly tickets: KitchenRepository,
    private readonly credentials: CredentialChecks,
    private readonly access: AccessPolicy,
    private readonly membershipChanges: MembershipChanges,
  ) {}

  async onModuleInit(): Promise<void> {
    this.unsubscribe = this.membershipChanges.onChange(() => void this.recheck());
    await this.notifications.subscribe(CHANNEL, (payload) => {
      let notice: TicketNotice;
      try {
        notice = JSON.parse(payload) as TicketNotice;
      } catch {
        return;
      }
      if (!this.clients.has(notice.business_uuid)) return;
      this.tickets
        .findTicket(notice.ticket_uuid)
        .then((ticket) => {
          if (ticket) this.deliver(notice.id, notice.type, toTicketResponse(ticket));
        })
        .catch((error: unknown) =>
          this.logger.warn(`Reading a ticket for the streams failed: ${String(error)}`),
        );
    });
  }

  /**
   * Announces tickets written in `tx` (each is read again as it is when
   * delivered); they reach the streams only if it commits. On a PostgreSQL
   * server the notices of all of them leave in one statement.
   */
  async announce(
    tx: Transaction,
    type: TicketEventType,
    tickets: ReadonlyArray<Pick<Ticket, 'uuid' | 'businessUuid'>>,
  ): Promise<void> {
    if (this.notifications.enabled) {
      const notices = tickets.map((ticket): TicketNotice => ({
        id: randomUUID(),
        type,
        business_uuid: ticket.businessUuid,
        ticket_uuid: ticket.uuid,
      }));
      await this.notifications.publishAll(
        CHANNEL,
        notices.map((notice) => JSON.stringify(notice)),
        tx.manager,
      );
      return;
    }
    for (const ticket of tickets) {
      const id = randomUUID();
      tx.afterCommit(async () => {
        const stored = await this.tickets.findTicket(ticket.uuid);
        if (stored) this.deliver(id, type, toTicketResponse(stored));
      });
    }
  }

  /** A member's stream of one business's tickets (one station's with `station`). */
  open(user: AuthUser, business: string, station: string | undefined, req: Request, res: Response) {
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
    const client: StationClient = {
      business,
      station,
      res,
      credential: heldCredentialOf(user),
      heartbeat: setInterval(() => this.write(client, ': heartbeat\n\n'), this.heartbeatMs),
    };
    let set = this.clients.get(business);
    if (!set) this.clients.set(business, (set = new Set()));
    set.add(client);
    res.on('close', () => this.remove(client));
    res.write('retry: 5000\n: connected\n\n');
    this.recheckTimer ??= setInterval(() => void this.recheck(), this.recheckMs);
    this.recheckTimer.unref();
  }

  private deliver(id: string, type: TicketEventType, ticket: TicketResponseDto): void {
    const frame = `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(ticket)}\n\n`;
    for (const client of this.clients.get(ticket.business_uuid) ?? []) {
      if (client.station === undefined || client.station === ticket.station) {
        this.write(client, frame);
      }
    }
  }

  /** Ends the streams whose credential no longer holds or whose user left the business. */
  async recheck(): Promise<void> {
    if (this.rechecking || this.clients.size === 0) return;
    this.rechecking = true;
    try {
      const all = [...this.clients.values()].flatMap((set) => [...set]);
      const revoked = await this.credentials.revoked(
        all.map((client) => client.credential),
        Date.now(),
      );
      const byUser = new Map<string, StationClient[]>();
      for (const client of all) {
        const reason = revoked.get(client.credential);
        if (reason !== undefined) {
          this.end(client, reason);
          continue;
        }
        const list = byUser.get(client.credential.userUuid) ?? [];
        list.push(client);
        byUser.set(client.credential.userUuid, list);
      }
      for (const [user, clients] of byUser) {
        const roles = await this.access.rolesOn(
          user,
          clients.map((client) => client.business),
        );
        for (const client of clients) {
          if (!roleAllows(roles.get(client.business), 'order.read')) {
            this.end(client, 'membership_changed');
          }
        }
      }
    } catch (error) {
      this.logger.warn(`Checking the station streams failed: ${String(error)}`);
    } finally {
      this.rechecking = false;
    }
  }

  get size(): number {
    let count = 0;
    for (const set of this.clients.values()) count += set.size;
    return count;
  }

  onModuleDestroy(): void {
    this.closing = true;
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    this.unsubscribe?.();
    for (const set of this.clients.values()) {
      for (const client of set) {
        clearInterval(client.heartbeat);
        client.res.end();
      }
    }
    this.clients.clear();
  }

  private write(client: StationClient, frame: string): void {
    if (client.res.writableEnded || client.res.destroyed) {
      this.remove(client);
      return;
    }
    if (client.res.writableLength > MAX_BUFFERED_BYTES) {
      client.res.destroy();
      this.remove(client);
      return;
    }
    client.res.write(frame);
  }

  private end(client: StationClient, reason: string): void {
    if (!client.res.writableEnded && !client.res.destroyed) {
      client.res.write(`event: stream.closed\ndata: ${JSON.stringify({ reason })}\n\n`);
      client.res.end();
    }
    this.remove(client);
  }

  private remove(client: StationClient): void {
    clearInterval(client.heartbeat);
    const set = this.clients.get(client.business);
    set?.delete(client);
    if (set?.size === 0) this.clients.delete(client.business);
  }
}
