import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { fetchAll, queryBuilder, rowsTable, sql, Table, toCamel } from '../database/query-builder';
import { takeTransactionLock } from '../database/transaction-locks';
import { KitchenTicketEntity, KitchenTicketLineEntity } from './entities';
import type { NewTicket, NewTicketLine, Ticket, TicketLine } from './kitchen.repository';

const db = queryBuilder<{
  kitchenTickets: Table<
    Omit<KitchenTicketEntity, 'order'>,
    'uuid' | 'printedCount' | 'createdAt' | 'updatedAt'
  >;
  kitchenTicketLines: Table<Omit<KitchenTicketLineEntity, 'ticket'>, 'uuid'>;
}>();

/** A ticket of a business to write, with its lines. */
export type NewStationTicket = Omit<NewTicket, 'businessUuid'> & {
  lines: readonly NewTicketLine[];
};

/**
 * The writes of a set of tickets (all stations' tickets of an order, or
 * their void tickets) in one round trip after the business's lock, whatever
 * the number of stations: what an order's acceptance and cancellation pay
 * for the kitchen.
 */
@Injectable()
export class TicketWritesRepository {
  /**
   * Writes tickets of one business and their lines in one statement, after
   * taking the business's lock in a statement of its own: under READ
   * COMMITTED each statement reads a snapshot taken as it starts, so the
   * statement that reads the latest version must start once the lock is
   * held. The tickets in `cancel` become `cancelled` first, then the new
   * tickets are inserted; each change takes the next version in the order
   * given. A ticket whose order already has one of its kind for its station
   * is not written (nor its lines) and is not in the answer: the answer is
   * the tickets written, in the order given, with their lines in cart order.
   */
  async writeTickets(
    manager: EntityManager,
    businessUuid: string,
    tickets: readonly NewStationTicket[],
    cancel: readonly string[] = [],
  ): Promise<Ticket[]> {
    if (tickets.length === 0 && cancel.length === 0) return [];
    await takeTransactionLock(manager, 'kitchen', businessUuid);
    const rows = await fetchAll(manager, writeTicketsStatement(businessUuid, tickets, cancel));
    return rows.map(({ lines, ...ticket }) => ({
      ...ticket,
      lines: (lines ?? []).map((line) => toCamel(line) as TicketLine),
    }));
  }
}

/** The columns of the tickets to write, each ticket numbered `n` from 1 in the order given. */
const TICKET_TYPES = {
  n: 'int',
  orderUuid: 'uuid',
  orderReference: 'text',
  station: 'text',
  kind: 'text',
  fulfilmentType: 'text',
  tableLabel: 'text',
  requestedTime: 'timestamptz',
  estimatedReadyAt: 'timestamptz',
  generalNote: 'text',
  status: 'text',
} as const;

/** The columns of their lines, each naming its ticket's `n`. */
const LINE_TYPES = {
  n: 'int',
  position: 'int',
  orderLineUuid: 'uuid',
  itemUuid: 'uuid',
  titleName: 'text',
  options: 'jsonb',
  quantity: 'int',
  itemNote: 'text',
  allergens: 'jsonb',
  status: 'text',
} as const;

type Columns<T> = Array<Exclude<keyof T, 'n'>>;
const TICKET_COLUMNS = Object.keys(TICKET_TYPES).filter((c) => c !== 'n') as Columns<
  typeof TICKET_TYPES
>;
const LINE_COLUMNS = Object.keys(LINE_TYPES).filter((c) => c !== 'n') as Columns<typeof LINE_TYPES>;

const isoOf = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/**
 * `writeTickets`' statement: the business's latest version, the
 * cancellations, the tickets (nothing for one that exists) and the lines of
 * the tickets written, answered with their lines as JSON.
 */
function writeTicketsStatement(
  businessUuid: string,
  tickets: readonly NewStationTicket[],
  cancel: readonly string[],
) {
  const ticketRows = tickets.map(({ lines: _lines, ...ticket }, i) => ({
    ...ticket,
    n: i + 1,
    requestedTime: isoOf(ticket.requestedTime),
    estimatedReadyAt: isoOf(ticket.estimatedReadyAt),
  }));
  const lineRows = tickets.flatMap((ticket, i) =>
    ticket.lines.map((line) => ({
      ...line,
      n: i + 1,
      options: [...line.options],
      allergens: [...line.allergens],
    })),
  );
  const cancelRows = cancel.map((uuid, i) => ({ n: i + 1, uuid }));
  // The new tickets' versions come after the cancellations'.
  const after = cancel.length;
  return db
    .with('top', (qb) =>
      qb
        .selectFrom('kitchenTickets')
        .select(sql<string>`coalesce(max(version), 0)`.as('version'))
        .where('businessUuid', '=', businessUuid),
    )
    .with('c', (qb) =>
      qb
        .updateTable('kitchenTickets')
        .from(['top', rowsTable(cancelRows, { n: 'int', uuid: 'uuid' }, 'cr')])
        .set({
          status: 'cancelled',
          version: sql<string>`top.version + cr.n`,
          updatedAt: sql<Date>`now()`,
        })
        .whereRef('kitchenTickets.uuid', '=', 'cr.uuid')
        .returning('kitchenTickets.uuid'),
    )
    .with('tk', (qb) => qb.selectFrom(rowsTable(ticketRows, TICKET_TYPES, 'r')).selectAll())
    .with('t', (qb) =>
      qb
        .insertInto('kitchenTickets')
        .columns(['businessUuid', ...TICKET_COLUMNS, 'version'])
        .expression((eb) =>
          eb
            .selectFrom(['top', 'tk'])
            .select([
              sql<string>`${businessUuid}::uuid`.as('businessUuid'),
              ...TICKET_COLUMNS.map((column) => `tk.${column}` as const),
              sql<string>`top.version + ${after}::int + tk.n`.as('version'),
            ]),
        )
        .onConflict((oc) => oc.columns(['orderUuid', 'station', 'kind']).doNothing())
        .returningAll(),
    )
    .with('l', (qb) =>
      qb
        .insertInto('kitchenTicketLines')
        .columns(['ticketUuid', ...LINE_COLUMNS])
        .expression((eb) =>
          eb
            .selectFrom('t')
            .innerJoin('tk', (join) =>
              join
                .onRef('tk.orderUuid', '=', 't.orderUuid')
                .onRef('tk.station', '=', 't.station')
                .onRef('tk.kind', '=', 't.kind'),
            )
            .innerJoin(rowsTable(lineRows, LINE_TYPES, 'lr'), 'lr.n', 'tk.n')
            .select(['t.uuid', ...LINE_COLUMNS.map((column) => `lr.${column}` as const)]),
        )
        .returningAll(),
    )
    .selectFrom('t')
    .selectAll('t')
    .select((eb) =>
      eb
        .selectFrom('l')
        .select(
          sql<Array<Record<string, unknown>>>`coalesce(json_agg(l ORDER BY l.position), '[]')`.as(
            'lines',
          ),
        )
        .whereRef('l.ticketUuid', '=', 't.uuid')
        .as('lines'),
    )
    .orderBy('t.version');
}
