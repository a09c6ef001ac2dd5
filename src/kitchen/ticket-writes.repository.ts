import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  execute,
  fetchAll,
  queryBuilder,
  rowsTable,
  sql,
  Table,
  toCamel,
} from '../database/query-builder';
import { KitchenTicketEntity, KitchenTicketLineEntity } from './entities';
import { takeVersions } from './kitchen.repository';
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
 * their void tickets) in one round trip whatever the number of stations,
 * and their versions in one more just before the commit: what an order's
 * acceptance and cancellation pay for the kitchen.
 */
@Injectable()
export class TicketWritesRepository {
  /**
   * Writes tickets of one business and their lines in one statement, still
   * without versions (see numberTickets). The tickets in `cancel` become
   * `cancelled` first, then the new tickets are inserted. A ticket whose
   * order already has one of its kind for its station is not written (nor
   * its lines) and is not in the answer: the answer is the tickets written,
   * in the order given, with their lines in cart order.
   */
  async writeTickets(
    manager: EntityManager,
    businessUuid: string,
    tickets: readonly NewStationTicket[],
    cancel: readonly string[] = [],
  ): Promise<Ticket[]> {
    if (tickets.length === 0 && cancel.length === 0) return [];
    const rows = await fetchAll(manager, writeTicketsStatement(businessUuid, tickets, cancel));
    return rows.map(({ lines, ...ticket }) => ({
      ...ticket,
      lines: (lines ?? []).map((line) => toCamel(line) as TicketLine),
    }));
  }

  /**
   * Gives the tickets the business's next versions, in the order given, in
   * one statement that takes them (see takeVersions: the business's row of
   * versions stays locked until the transaction ends, so its versions commit
   * in the order they were given). Called just before the commit, the lock
   * is held for this statement and the commit.
   */
  async numberTickets(
    manager: EntityManager,
    businessUuid: string,
    uuids: readonly string[],
  ): Promise<void> {
    if (uuids.length === 0) return;
    const count = uuids.length;
    await execute(
      manager,
      db
        .with('v', () => takeVersions(businessUuid, count))
        .updateTable('kitchenTickets')
        .from([
          'v',
          rowsTable(
            uuids.map((uuid, i) => ({ n: i + 1, uuid })),
            { n: 'int', uuid: 'uuid' },
            'r',
          ),
        ])
        .set({
          version: sql<string>`v.version - ${count}::int + r.n`,
          updatedAt: sql<Date>`now()`,
        })
        .whereRef('kitchenTickets.uuid', '=', 'r.uuid')
        .where('kitchenTickets.businessUuid', '=', businessUuid),
    );
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
 * `writeTickets`' statement: the cancellations, the tickets (nothing for
 * one that exists) and the lines of the tickets written, answered with
 * their lines as JSON in the order given.
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
  return db
    .with('c', (qb) =>
      qb
        .updateTable('kitchenTickets')
        .from(rowsTable(cancelRows, { n: 'int', uuid: 'uuid' }, 'cr'))
        // The version it had stays until numberTickets gives the next (never a lower one).
        .set({ status: 'cancelled', updatedAt: sql<Date>`now()` })
        .whereRef('kitchenTickets.uuid', '=', 'cr.uuid')
        .returning('kitchenTickets.uuid'),
    )
    .with('tk', (qb) => qb.selectFrom(rowsTable(ticketRows, TICKET_TYPES, 'r')).selectAll())
    .with('t', (qb) =>
      qb
        .insertInto('kitchenTickets')
        .columns(['businessUuid', ...TICKET_COLUMNS])
        .expression((eb) =>
          eb
            .selectFrom('tk')
            .select([
              sql<string>`${businessUuid}::uuid`.as('businessUuid'),
              ...TICKET_COLUMNS.map((column) => `tk.${column}` as const),
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
    .innerJoin('tk', (join) =>
      join
        .onRef('tk.orderUuid', '=', 't.orderUuid')
        .onRef('tk.station', '=', 't.station')
        .onRef('tk.kind', '=', 't.kind'),
    )
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
    .orderBy('tk.n');
}
