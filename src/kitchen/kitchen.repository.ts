import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { execute, fetchAll, fetchOne, queryBuilder, sql, Table } from '../database/query-builder';
import {
  KitchenTicketEntity,
  KitchenTicketLineEntity,
  KitchenTicketVersionEntity,
} from './entities';
import type { LineStatus, TicketStatus } from './domain/ticket-status';

const db = queryBuilder<{
  kitchenTickets: Table<
    Omit<KitchenTicketEntity, 'order'>,
    'uuid' | 'printedCount' | 'createdAt' | 'updatedAt'
  >;
  kitchenTicketLines: Table<Omit<KitchenTicketLineEntity, 'ticket'>, 'uuid' | 'status'>;
  kitchenTicketVersions: Table<KitchenTicketVersionEntity>;
}>();

/**
 * Takes the next `count` versions of a business's tickets and answers the
 * last: its row of kitchen_ticket_versions moves on, and its lock is held
 * until the transaction ends. In one statement even when another
 * transaction holds the row: the update waits for it, then reads the row as
 * that one committed it, so no version is given twice.
 */
export function takeVersions(businessUuid: string, count: number) {
  return db
    .insertInto('kitchenTicketVersions')
    .values({ businessUuid, version: String(count) })
    .onConflict((oc) =>
      oc.column('businessUuid').doUpdateSet({
        version: sql<string>`kitchen_ticket_versions.version + excluded.version`,
      }),
    )
    .returning('version');
}

/** A ticket with its lines in cart order. */
export type Ticket = Omit<KitchenTicketEntity, 'order'> & { lines: TicketLine[] };
export type TicketLine = Omit<KitchenTicketLineEntity, 'ticket'>;

export type NewTicket = Omit<
  KitchenTicketEntity,
  'order' | 'uuid' | 'printedCount' | 'createdAt' | 'updatedAt' | 'version'
>;
export type NewTicketLine = Omit<TicketLine, 'uuid' | 'ticketUuid'>;

export interface TicketFilter {
  businessUuid: string;
  station?: string;
  status: 'open' | 'done' | 'all';
  /** Only tickets changed after this version, in the order they changed. */
  since?: string;
  page: number;
  perPage: number;
}

const OPEN: TicketStatus[] = ['queued', 'preparing'];

/** All SQL of the kitchen's tickets. Writers take the caller's transaction manager. */
@Injectable()
export class KitchenRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Serialises the writes of one business's tickets until the transaction
   * ends and answers the next version (see takeVersions): the versions of a
   * business commit in the order they were given, so a reader's cursor
   * never passes a change that commits later.
   */
  async nextVersion(manager: EntityManager, businessUuid: string): Promise<string> {
    const row = await fetchOne(manager, takeVersions(businessUuid, 1));
    return String(row!.version);
  }

  async findTicket(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Ticket | null> {
    const ticket = await fetchOne(
      manager,
      db.selectFrom('kitchenTickets').selectAll().where('uuid', '=', uuid),
    );
    if (!ticket) return null;
    return (await this.withLines(manager, [ticket]))[0];
  }

  /** The tickets of an order, oldest first, with their lines. */
  async ticketsOfOrder(
    orderUuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Ticket[]> {
    const tickets = await fetchAll(
      manager,
      db
        .selectFrom('kitchenTickets')
        .selectAll()
        .where('orderUuid', '=', orderUuid)
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
    return this.withLines(manager, tickets);
  }

  async setLineStatus(
    manager: EntityManager,
    ticketUuid: string,
    lineUuids: readonly string[],
    status: LineStatus,
  ): Promise<void> {
    if (lineUuids.length === 0) return;
    await execute(
      manager,
      db
        .updateTable('kitchenTicketLines')
        .set({ status })
        .where('ticketUuid', '=', ticketUuid)
        .where('uuid', 'in', [...lineUuids]),
    );
  }

  async setTicketStatus(
    manager: EntityManager,
    uuid: string,
    status: TicketStatus,
    version: string,
  ): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('kitchenTickets')
        .set({ status, version, updatedAt: sql<Date>`now()` })
        .where('uuid', '=', uuid),
    );
  }

  /** Counts one more docket of the ticket and answers how many were served before it. */
  async countPrint(uuid: string): Promise<number> {
    const row = await fetchOne(
      this.dataSource.manager,
      db
        .updateTable('kitchenTickets')
        .set({ printedCount: sql<number>`printed_count + 1` })
        .where('uuid', '=', uuid)
        .returning('printedCount'),
    );
    return (row?.printedCount ?? 1) - 1;
  }

  /** One page of a business's tickets, the total, and the business's latest version. */
  /**
   * One page of a business's tickets, the total, and the cursor for what
   * changed after it: every statement reads one snapshot (repeatable read),
   * so a change that commits meanwhile is either on the page or after the
   * cursor. Following `since`, a page that is not the last ends the cursor
   * at its own last change, so the next answer starts there.
   */
  async list(filter: TicketFilter): Promise<{ tickets: Ticket[]; total: number; version: string }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      let query = db.selectFrom('kitchenTickets').where('businessUuid', '=', filter.businessUuid);
      if (filter.station !== undefined) query = query.where('station', '=', filter.station);
      if (filter.status === 'open') query = query.where('status', 'in', OPEN);
      if (filter.status === 'done') query = query.where('status', 'not in', OPEN);
      if (filter.since !== undefined) query = query.where('version', '>', filter.since);
      const ordered =
        filter.since !== undefined
          ? query.orderBy('version')
          : query.orderBy('createdAt').orderBy('uuid');
      const rows = await fetchAll(
        manager,
        ordered
          .selectAll()
          .limit(filter.perPage)
          .offset((filter.page - 1) * filter.perPage),
      );
      const counted = await fetchOne(
        manager,
        query.select((eb) => eb.fn.countAll<string>().as('total')),
      );
      const latest = await fetchOne(
        manager,
        db
          .selectFrom('kitchenTickets')
          .select(sql<string>`coalesce(max(version), 0)`.as('v'))
          .where('businessUuid', '=', filter.businessUuid),
      );
      const total = Number(counted?.total ?? 0);
      const more = filter.page * filter.perPage < total;
      const version =
        filter.since !== undefined && more && rows.length
          ? rows[rows.length - 1].version
          : (latest?.v ?? '0');
      return { tickets: await this.withLines(manager, rows), total, version: String(version) };
    });
  }

  /** The tickets of these orders without their lines, by order uuid, oldest first. */
  async summariesOf(
    orderUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Array<Omit<Ticket, 'lines'>>>> {
    const rows = await fetchAll(
      manager,
      db
        .selectFrom('kitchenTickets')
        .selectAll()
        .where('orderUuid', 'in', [...orderUuids])
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
    const byOrder = new Map<string, Array<Omit<Ticket, 'lines'>>>();
    for (const row of rows) {
      const list = byOrder.get(row.orderUuid);
      if (list) list.push(row);
      else byOrder.set(row.orderUuid, [row]);
    }
    return byOrder;
  }

  private async withLines(
    manager: EntityManager,
    tickets: ReadonlyArray<Omit<Ticket, 'lines'>>,
  ): Promise<Ticket[]> {
    if (tickets.length === 0) return [];
    const lines = await fetchAll(
      manager,
      db
        .selectFrom('kitchenTicketLines')
        .selectAll()
        .where(
          'ticketUuid',
          'in',
          tickets.map((ticket) => ticket.uuid),
        )
        .orderBy('ticketUuid')
        .orderBy('position'),
    );
    const byTicket = new Map<string, TicketLine[]>();
    for (const line of lines) {
      const list = byTicket.get(line.ticketUuid);
      if (list) list.push(line);
      else byTicket.set(line.ticketUuid, [line]);
    }
    return tickets.map((ticket) => ({ ...ticket, lines: byTicket.get(ticket.uuid) ?? [] }));
  }
}
