import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { fetchAll, fetchOne } from '../database/query-builder';
import { keepPlan } from '../database/kept-plans';
import { preparedQuery } from '../database/prepared-query';
import { writeLastBeforeCommit } from '../database/writes-before-commit';
import { transactionLock } from '../database/transaction-locks';
import { OrderStatus } from './domain/order-status';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import { OrderActor } from './entities/order-event.entity';
import { NewOrder, NewOrderLine, PlacedRow, placeStatement } from './order-placement.statement';
import { db, eventsFromJson } from './order-tables';
import {
  NewOrderEvent,
  OrderChanges,
  OrderPaymentModel,
  withHistory,
  WrittenOrder,
  writtenOf,
} from './order-update.statements';

export type {
  NewOrderEvent,
  OrderChanges,
  OrderPaymentModel,
  WrittenOrder,
} from './order-update.statements';

/** Tries before giving up on drawing a free order reference; a clash is already rare. */
const REFERENCE_ATTEMPTS = 8;

export interface OrderFilter {
  status?: OrderStatus;
  businessUuid?: string;
  menuUuid?: string;
  from?: Date;
  to?: Date;
}

/** Event ids are bigint, read as decimal text. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

/** An order locked with its payments' lock taken first (see findForUpdate). */
const lockOrder = preparedQuery(({ uuid }: { uuid: string }) =>
  db
    .selectFrom('orders')
    .selectAll()
    .select(transactionLock('order', uuid).as('locked'))
    .where('uuid', '=', uuid)
    .forUpdate(),
);

/** All SQL of orders, their lines and history. Writers take the caller's transaction manager. */
@Injectable()
export class OrderRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts a placed order, its lines and the first entry of its history
   * (its status set, by `actor`) in one statement, and answers them as
   * stored. The order gets a fresh reference; a clash with an existing one
   * inserts nothing (ON CONFLICT: an error would abort the transaction) and
   * another reference is drawn.
   */
  async insertPlacedOrder(
    manager: EntityManager,
    order: NewOrder,
    lines: readonly NewOrderLine[],
    actor: OrderActor,
  ): Promise<{ order: OrderEntity; lines: OrderLineEntity[]; events: OrderEventEntity[] }> {
    for (let attempt = 0; attempt < REFERENCE_ATTEMPTS; attempt++) {
      // Rows inserted from its values: one plan holds whatever the tables hold.
      const row: PlacedRow | undefined = await fetchOne(
        manager,
        keepPlan(placeStatement(order, lines, actor)),
      );
      if (!row) continue;
      const { placedLines, placedEvents, ...stored } = row;
      return {
        order: stored,
        lines: [...(placedLines ?? [])].sort((a, b) => a.position - b.position),
        events: eventsFromJson(placedEvents),
      };
    }
    throw new Error(`No free order reference after ${REFERENCE_ATTEMPTS} draws`);
  }

  /** Appends history entries in one statement and answers them as stored, oldest first. */
  async insertEvents(
    manager: EntityManager,
    orderUuid: string,
    events: readonly NewOrderEvent[],
  ): Promise<OrderEventEntity[]> {
    if (events.length === 0) return [];
    const rows = await fetchAll(
      manager,
      db
        .insertInto('orderEvents')
        .values(events.map((event) => ({ ...event, orderUuid })))
        .returningAll(),
    );
    return rows.sort((a, b) => compareIds(a.id, b.id));
  }

  async findByUuid(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OrderEntity | null> {
    return (
      (await fetchOne(manager, db.selectFrom('orders').selectAll().where('uuid', '=', uuid))) ??
      null
    );
  }

  /**
   * The order with its row locked until the transaction ends, so a
   * concurrent update waits and then sees this one's result. The order's
   * lock (the one its payments' changes take first) is taken in the same
   * statement before the row lock, so a transaction that goes on to touch
   * the order's payments never waits on one that holds them in a circle.
   */
  async findForUpdate(manager: EntityManager, uuid: string): Promise<OrderEntity | null> {
    const row = await fetchOne(manager, lockOrder({ uuid }));
    if (!row) return null;
    const { locked: _locked, ...order } = row as typeof row & { locked: unknown };
    return order as OrderEntity;
  }

  /**
   * Changes the order and appends `events` to its history (oldest first)
   * in one statement; answers the order as stored.
   */
  updateOrder(
    manager: EntityManager,
    uuid: string,
    changes: OrderChanges,
    events: readonly NewOrderEvent[] = [],
  ): Promise<OrderEntity> {
    return this.updateWithHistory(manager, uuid, changes, events);
  }

  /**
   * Writes the read model of the order's payments (and `events`, as
   * updateOrder); answers the order and the history entries as stored
   * (undefined when there is no such order).
   */
  async updatePaymentModel(
    manager: EntityManager,
    uuid: string,
    model: OrderPaymentModel,
    events: readonly NewOrderEvent[] = [],
    asPlaced = false,
  ): Promise<WrittenOrder | undefined> {
    return writtenOf(await fetchOne(manager, withHistory(uuid, model, events, asPlaced)));
  }

  /**
   * `updatePaymentModel` as the last statement of its transaction, which
   * sends nothing after it (writeLastBeforeCommit): it carries the COMMIT
   * when it may. `record` gets what it wrote once it has answered. With
   * `asPlaced`, the statement fails with SQLSTATE SV001 (and its
   * transaction is run again) unless the order is as its placement wrote it.
   */
  updatePaymentModelLast(
    manager: EntityManager,
    uuid: string,
    model: OrderPaymentModel,
    events: readonly NewOrderEvent[],
    record: (written: WrittenOrder | undefined) => void,
    asPlaced = false,
  ): Promise<void> {
    // The order changed by its key, its history inserted from values: its plan may be kept.
    return writeLastBeforeCommit(
      manager,
      keepPlan(withHistory(uuid, model, events, asPlaced)),
      (rows) => record(writtenOf(rows[0])),
    );
  }

  private async updateWithHistory(
    manager: EntityManager,
    uuid: string,
    set: OrderChanges,
    events: readonly NewOrderEvent[],
  ): Promise<OrderEntity> {
    return (await this.writeWithHistory(manager, uuid, set, events))!.order;
  }

  /** The order's columns and its new history entries in one statement, both answered as stored. */
  private async writeWithHistory(
    manager: EntityManager,
    uuid: string,
    set: OrderChanges | OrderPaymentModel,
    events: readonly NewOrderEvent[],
  ): Promise<WrittenOrder | undefined> {
    return writtenOf(await fetchOne(manager, withHistory(uuid, set, events)));
  }

  /**
   * One user's orders: those of the businesses they own and of `memberOf`,
   * the businesses they work for. Newest first, ties broken by uuid so pages
   * are stable (index orders_owner_created_idx).
   */
  async listForOwner(
    ownerUuid: string,
    filter: OrderFilter,
    page: number,
    perPage: number,
    memberOf: readonly string[] = [],
  ): Promise<{ orders: OrderEntity[]; total: number }> {
    let query = db
      .selectFrom('orders')
      .where((eb) =>
        memberOf.length === 0
          ? eb('ownerUuid', '=', ownerUuid)
          : eb.or([eb('ownerUuid', '=', ownerUuid), eb('businessUuid', 'in', [...memberOf])]),
      );
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.businessUuid) query = query.where('businessUuid', '=', filter.businessUuid);
    if (filter.menuUuid) query = query.where('menuUuid', '=', filter.menuUuid);
    if (filter.from) query = query.where('createdAt', '>=', filter.from);
    // Answers show milliseconds while the column keeps microseconds: `to` covers its whole millisecond.
    if (filter.to) query = query.where('createdAt', '<', new Date(filter.to.getTime() + 1));
    const manager = this.dataSource.manager;
    const orders = await fetchAll(
      manager,
      query
        .selectAll()
        .orderBy('createdAt', 'desc')
        .orderBy('uuid', 'desc')
        .offset((page - 1) * perPage)
        .limit(perPage),
    );
    const counted = await fetchOne(
      manager,
      query.select((eb) => eb.fn.countAll<string>().as('total')),
    );
    return { orders, total: Number(counted?.total ?? 0) };
  }

  /** Lines of these orders, by order uuid, in cart order. */
  async linesOf(
    orderUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, OrderLineEntity[]>> {
    const lines = orderUuids.length
      ? await fetchAll(
          manager,
          db
            .selectFrom('orderLines')
            .selectAll()
            .where('orderUuid', 'in', [...orderUuids])
            .orderBy('orderUuid')
            .orderBy('position'),
        )
      : [];
    return groupBy(lines, (line) => line.orderUuid);
  }

  /** History of these orders, by order uuid, oldest first. */
  async eventsOf(
    orderUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, OrderEventEntity[]>> {
    const events = orderUuids.length
      ? await fetchAll(
          manager,
          db
            .selectFrom('orderEvents')
            .selectAll()
            .where('orderUuid', 'in', [...orderUuids])
            .orderBy('id'),
        )
      : [];
    return groupBy(events, (event) => event.orderUuid);
  }
}
