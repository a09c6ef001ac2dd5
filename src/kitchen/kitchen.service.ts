import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { isUuid } from '../common/uuid';
import { EventBus, Transaction } from '../database/event-bus';
import { EntityService } from '../entity';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { OrderRepository, OrderStatusMoves } from '../order';
import { AccessPolicy, BusinessRole } from '../team';
import { docketBytes, docketText, DocketTicket } from './domain/docket';
import { canMoveLine, LineStatus, ticketStatusOf } from './domain/ticket-status';
import {
  DocketQueryDto,
  ListTicketsQueryDto,
  MoveLineDto,
  TicketResponseDto,
  toTicketResponse,
} from './dto/ticket.dto';
import { KitchenRepository, Ticket } from './kitchen.repository';
import { KitchenStreams } from './realtime/kitchen-streams';

const PER_PAGE = 100;
const NOT_FOUND = 'The ticket does not exist.';

/** `meta.cursor`: opaque to clients, the business's ticket version underneath. */
function encodeCursor(version: string): string {
  return Buffer.from(`v1:${version}`).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^v1:(\d{1,18})$/.exec(text);
  if (!match) {
    throw ApiError.validation(
      [{ field: 'since', message: 'since must be the meta.cursor of an earlier answer' }],
      'since is not a cursor of this list.',
    );
  }
  return match[1];
}

/**
 * The kitchen's routes: a business's tickets and their stream, moving a
 * line, bumping a ticket, and its dockets. The owner, managers and staff of
 * the ticket's business may do all of it; anyone else finds nothing (404).
 * A line's move and a bump move the order too, in the same transaction:
 * `preparing` at the first line in preparation, `ready` when every line of
 * every ticket of the order is ready.
 */
@Injectable()
export class KitchenService {
  constructor(
    private readonly bus: EventBus,
    private readonly tickets: KitchenRepository,
    private readonly orders: OrderRepository,
    private readonly moves: OrderStatusMoves,
    private readonly access: AccessPolicy,
    private readonly entities: EntityService,
    private readonly streams: KitchenStreams,
  ) {}

  // R85: the kitchen's routes are its business's team's.
  private async requireTeam(
    user: AuthUser,
    businessUuid: string,
    action: 'order.read' | 'order.update',
    message = 'Business not found.',
  ): Promise<BusinessRole> {
    if (!isUuid(businessUuid)) throw ApiError.notFound(message);
    return this.access.requireAccess(user, action, businessUuid.toLowerCase(), {
      noPart: 'not_found',
      message,
    });
  }

  async listTickets(
    user: AuthUser,
    businessUuid: string,
    query: ListTicketsQueryDto,
  ): Promise<ApiResult<TicketResponseDto[]>> {
    await this.requireTeam(user, businessUuid, 'order.read');
    const since = query.since === undefined ? undefined : decodeCursor(query.since);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? PER_PAGE;
    const found = await this.tickets.list({
      businessUuid: businessUuid.toLowerCase(),
      station: query.station,
      status: query.status ?? (since !== undefined ? 'all' : 'open'),
      since,
      page,
      perPage,
    });
    return new ApiResult(found.tickets.map(toTicketResponse), 'Kitchen tickets', {
      ...pageMeta(page, perPage, found.total),
      cursor: encodeCursor(found.version),
    });
  }

  async streamScope(user: AuthUser, businessUuid: string): Promise<string> {
    await this.requireTeam(user, businessUuid, 'order.read');
    return businessUuid.toLowerCase();
  }

  /** A ticket the caller's role on its business allows `action` on; 404 for anyone else. */
  private async ticketFor(
    user: AuthUser,
    ticketUuid: string,
    action: 'order.read' | 'order.update',
  ): Promise<{ ticket: Ticket; role: BusinessRole }> {
    if (!isUuid(ticketUuid)) throw ApiError.notFound(NOT_FOUND);
    const ticket = await this.tickets.findTicket(ticketUuid.toLowerCase());
    if (!ticket) throw ApiError.notFound(NOT_FOUND);
    const role = await this.requireTeam(user, ticket.businessUuid, action, NOT_FOUND);
    return { ticket, role };
  }

  async moveLine(
    user: AuthUser,
    ticketUuid: string,
    lineUuid: string,
    dto: MoveLineDto,
  ): Promise<TicketResponseDto> {
    const { ticket, role } = await this.ticketFor(user, ticketUuid, 'order.update');
    if (!isUuid(lineUuid) || !ticket.lines.some((line) => line.uuid === lineUuid.toLowerCase())) {
      throw ApiError.notFound('The line is not on this ticket.');
    }
    return this.change(ticket, user, role, (current) => {
      const line = current.lines.find((entry) => entry.uuid === lineUuid.toLowerCase())!;
      if (!canMoveLine(line.status, dto.status)) {
        throw ApiError.unprocessable(
          `A line that is ${line.status} cannot become ${dto.status}: a line moves one step at a time.`,
          [{ field: 'status', message: 'one step at a time', current_status: line.status }],
        );
      }
      return [{ lines: [line.uuid], to: dto.status }];
    });
  }

  async bumpTicket(user: AuthUser, ticketUuid: string): Promise<TicketResponseDto> {
    const { ticket, role } = await this.ticketFor(user, ticketUuid, 'order.update');
    return this.change(ticket, user, role, (current) => {
      const open = current.lines.filter((line) => line.status !== 'ready');
      if (open.length === 0) {
        // A second bump (a double tap, two screens) changes nothing and says so.
        throw ApiError.unprocessable('The ticket is already bumped: every line is ready.', [
          { field: 'status', message: 'every line is ready', current_status: current.status },
        ]);
      }
      return [{ lines: open.map((line) => line.uuid), to: 'ready' }];
    });
  }

  /**
   * Changes lines of a ticket with its order's row locked (the lock every
   * change of the order takes first), then the ticket's status, then the
   * order's. A ticket that is done (cancelled, or a bumped void) is 422.
   */
  private async change(
    found: Ticket,
    user: AuthUser,
    role: BusinessRole,
    plan: (ticket: Ticket) => Array<{ lines: string[]; to: LineStatus }>,
  ): Promise<TicketResponseDto> {
    return this.bus.transaction(async (tx) => {
      const order = await this.orders.findForUpdate(tx.manager, found.orderUuid);
      const ticket = (await this.tickets.findTicket(found.uuid, tx.manager))!;
      if (
        !order ||
        ticket.status === 'cancelled' ||
        (ticket.kind === 'void' && ticket.status === 'ready')
      ) {
        throw ApiError.unprocessable(`The ticket is done (${ticket.status}).`, [
          { field: 'status', message: 'the ticket is done', current_status: ticket.status },
        ]);
      }
      const steps = plan(ticket);
      if (ticket.kind === 'void' && steps.some((step) => step.to !== 'ready')) {
        throw ApiError.unprocessable('A void ticket is only bumped.', [
          { field: 'status', message: 'a void ticket is only bumped' },
        ]);
      }
      const moved = new Map(ticket.lines.map((line) => [line.uuid, line.status]));
      for (const step of steps) {
        await this.tickets.setLineStatus(tx.manager, ticket.uuid, step.lines, step.to);
        for (const uuid of step.lines) moved.set(uuid, step.to);
      }
      const lines = ticket.lines.map((line) => ({ ...line, status: moved.get(line.uuid)! }));
      const version = await this.tickets.nextVersion(tx.manager, ticket.businessUuid);
      await this.tickets.setTicketStatus(tx.manager, ticket.uuid, ticketStatusOf(lines), version);
      const stored = (await this.tickets.findTicket(ticket.uuid, tx.manager))!;
      await this.streams.announce(tx, 'ticket.updated', [stored]);
      if (ticket.kind === 'new') await this.followOrder(tx, order, { role, uuid: user.uuid });
      return toTicketResponse(stored);
    });
  }

  // R87: the order follows its lines.
  /**
   * An accepted order becomes `preparing` at its first line in preparation,
   * and `ready` when every line of every ticket of it is ready, under the
   * member who made the move.
   */
  private async followOrder(
    tx: Transaction,
    order: Awaited<ReturnType<OrderRepository['findForUpdate']>> & object,
    by: { role: BusinessRole; uuid: string },
  ): Promise<void> {
    const all = (await this.tickets.ticketsOfOrder(order.uuid, tx.manager)).filter(
      (ticket) => ticket.kind === 'new',
    );
    const lines = all.flatMap((ticket) => ticket.lines);
    const mover = { actor: by.role, userUuid: by.uuid };
    let current = order;
    if (lines.length && lines.every((line) => line.status === 'ready')) {
      if (this.moves.allowed(current, 'ready')) {
        await this.moves.move(tx, current, 'ready', mover);
      }
      return;
    }
    if (
      current.status === 'accepted' &&
      lines.some((line) => line.status !== 'queued') &&
      this.moves.allowed(current, 'preparing')
    ) {
      current = await this.moves.move(tx, current, 'preparing', mover);
    }
  }

  async docket(
    user: AuthUser,
    ticketUuid: string,
    query: DocketQueryDto,
    format: 'text' | 'bytes',
  ): Promise<string | Buffer> {
    const { ticket } = await this.ticketFor(user, ticketUuid, 'order.read');
    const kitchen = await this.entities.kitchenOf(ticket.businessUuid);
    const printedBefore = await this.tickets.countPrint(ticket.uuid);
    const response = toTicketResponse(ticket);
    const docket: DocketTicket = {
      ...response,
      station_title: kitchen.stations.find((station) => station.key === ticket.station)?.title,
      time_zone: kitchen.timeZone,
    };
    const width = query.width ?? 42;
    const reprint = printedBefore >= 1;
    return format === 'text'
      ? docketText(docket, width, reprint)
      : docketBytes(docket, width, reprint);
  }
}
