import { Injectable } from '@nestjs/common';
import { EventBus, Transaction } from '../database/event-bus';
import { EntityService } from '../entity';
import { OrderChanged, OrderEntity, OrderRepository, OrderTickets } from '../order';
import { routeLines } from './domain/routing';
import { KitchenRepository, Ticket } from './kitchen.repository';
import { KitchenStreams } from './realtime/kitchen-streams';
import { NewStationTicket, TicketWritesRepository } from './ticket-writes.repository';

/** The dine-in location as the guest sent it; null for other modes or none. */
function tableOf(order: OrderEntity): string | null {
  if (order.fulfilmentType !== 'dine_in') return null;
  const location = order.onpremiseData?.customer_onpremise_location;
  return typeof location === 'string' && location.trim() !== '' ? location : null;
}

/** The void ticket of a station's ticket: the same order and station, its lines queued again. */
function voidOf(ticket: Ticket): NewStationTicket {
  const { orderUuid, orderReference, station, fulfilmentType, tableLabel } = ticket;
  const { requestedTime, estimatedReadyAt, generalNote } = ticket;
  return {
    orderUuid,
    orderReference,
    station,
    kind: 'void',
    fulfilmentType,
    tableLabel,
    requestedTime,
    estimatedReadyAt,
    generalNote,
    status: 'queued',
    lines: ticket.lines.map(({ uuid: _u, ticketUuid: _t, ...line }) => ({
      ...line,
      status: 'queued',
    })),
  };
}

/**
 * Writes the tickets of an order in the transaction of its change: the
 * station tickets when it becomes accepted (or is placed accepted), the
 * void tickets when an order with tickets is cancelled; their versions
 * just before that transaction commits. Heard through
 * `order.changed`, so every way an order reaches those states (the
 * business's update, the service at a deadline, an order taken by staff)
 * makes its tickets, and a failure here fails the change itself.
 */
@Injectable()
export class KitchenTickets {
  constructor(
    bus: EventBus,
    private readonly tickets: KitchenRepository,
    private readonly writes: TicketWritesRepository,
    private readonly orders: OrderRepository,
    private readonly entities: EntityService,
    private readonly streams: KitchenStreams,
    orderTickets: OrderTickets,
  ) {
    bus.on('order.changed', (event, tx) => this.onOrderChanged(event, tx));
    // The business's view of an order lists its tickets.
    orderTickets.provide(async (orderUuids, manager) => {
      const found = await this.tickets.summariesOf(orderUuids, manager);
      return new Map(
        [...found].map(([order, tickets]) => [
          order,
          tickets.map((ticket) => ({
            uuid: ticket.uuid,
            station: ticket.station,
            kind: ticket.kind,
            status: ticket.status,
            printed_count: ticket.printedCount,
            created_at: new Date(ticket.createdAt).toISOString(),
          })),
        ]),
      );
    });
  }

  private async onOrderChanged(event: OrderChanged, tx: Transaction): Promise<void> {
    const { order, previousStatus } = event;
    const statusChanged = event.type === 'order.created' || event.changes.includes('status');
    if (!statusChanged || previousStatus === order.status) return;
    if (order.status === 'accepted') await this.open(tx, order);
    if (order.status === 'cancelled') await this.voidTickets(tx, order);
  }

  // R84: tickets with the acceptance.
  /** One ticket per station with lines; none again for an order that has them. */
  private async open(tx: Transaction, order: OrderEntity): Promise<void> {
    const { manager } = tx;
    const kitchen = await this.entities.kitchenOf(order.businessUuid, manager);
    const lines = (await this.orders.linesOf([order.uuid], manager)).get(order.uuid) ?? [];
    const tickets = [...routeLines(lines, kitchen)].map(
      ([station, stationLines]): NewStationTicket => ({
        orderUuid: order.uuid,
        orderReference: order.orderReference,
        station,
        kind: 'new',
        fulfilmentType: order.fulfilmentType,
        tableLabel: tableOf(order),
        requestedTime: order.requestedTime,
        estimatedReadyAt: order.estimatedReadyAt,
        generalNote: order.generalNote,
        status: 'queued',
        lines: stationLines.map((line) => ({
          position: line.position,
          orderLineUuid: line.uuid,
          itemUuid: line.itemUuid,
          titleName: line.titleName,
          options: line.options,
          quantity: line.quantity,
          itemNote: line.itemNote,
          allergens: [...line.allergens],
          status: 'queued',
        })),
      }),
    );
    const written = await this.writes.writeTickets(manager, order.businessUuid, tickets);
    this.numberBeforeCommit(tx, order.businessUuid, written);
    await this.streams.announce(tx, 'ticket.created', written);
  }

  /**
   * The tickets' versions are given last, just before the commit: the
   * business's row of versions is then locked for the statement that gives
   * them and the commit, not for the rest of the order's change.
   */
  private numberBeforeCommit(
    tx: Transaction,
    businessUuid: string,
    tickets: ReadonlyArray<Pick<Ticket, 'uuid'>>,
  ): void {
    if (tickets.length === 0) return;
    const uuids = tickets.map((ticket) => ticket.uuid);
    tx.beforeCommit(() => this.writes.numberTickets(tx.manager, businessUuid, uuids));
  }

  // R86: void tickets on cancellation.
  /**
   * Each station that had a ticket of the order gets a `void` ticket naming
   * it (open until bumped, so the kitchen sees it); the `new` tickets are
   * done as `cancelled`.
   */
  private async voidTickets(tx: Transaction, order: OrderEntity): Promise<void> {
    const { manager } = tx;
    const existing = (await this.tickets.ticketsOfOrder(order.uuid, manager)).filter(
      (ticket) => ticket.kind === 'new',
    );
    if (existing.length === 0) return;
    const cancelled = existing.filter((ticket) => ticket.status !== 'cancelled');
    const created = await this.writes.writeTickets(
      manager,
      order.businessUuid,
      existing.map(voidOf),
      cancelled.map((ticket) => ticket.uuid),
    );
    this.numberBeforeCommit(tx, order.businessUuid, [...cancelled, ...created]);
    await this.streams.announce(tx, 'ticket.updated', cancelled);
    await this.streams.announce(tx, 'ticket.created', created);
  }
}
