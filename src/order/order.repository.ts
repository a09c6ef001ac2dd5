import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import {
  fetchAll,
  fetchOne,
  jsonb,
  queryBuilder,
  rowsTable,
  sql,
  Table,
} from '../database/query-builder';
import { transactionLock } from '../database/transaction-locks';
import type { PaymentProcessor, PaymentState, PaymentStatus } from '../payment';
import { generateOrderReference } from './domain/order-reference';
import { OrderStatus } from './domain/order-status';
import type { FulfilmentType } from './domain/fulfilment-type';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import type { OrderChannel } from './entities/order.entity';
import { OrderActor, OrderEventField } from './entities/order-event.entity';

/** Tries before giving up on drawing a free order reference; a clash is already rare. */
const REFERENCE_ATTEMPTS = 8;

export const db = queryBuilder<{
  orders: Table<
    OrderEntity,
    | 'orderReference'
    | 'status'
    | 'paymentStatus'
    | 'paymentState'
    | 'amountPaid'
    | 'amountRefunded'
    | 'ownerNote'
    | 'estimatedReadyAt'
    | 'channel'
    | 'createdBy'
    | 'tabUuid'
    | 'createdAt'
    | 'updatedAt'
  >;
  orderLines: Table<Omit<OrderLineEntity, 'order'>, 'uuid'>;
  orderEvents: Table<Omit<OrderEventEntity, 'order'>, 'id' | 'createdAt' | 'reason'>;
}>();

export interface NewOrder {
  uuid: string;
  menuUuid: string;
  businessUuid: string;
  ownerUuid: string;
  paymentProcessor: PaymentProcessor;
  amount: string;
  currency: string | null;
  customerEmailAddress: string;
  customerPhoneNumber: string | null;
  customerRequestedOrderEmailCopy: boolean;
  generalNote: string | null;
  deliveryData: Record<string, unknown> | null;
  onpremiseData: Record<string, unknown> | null;
  /** The read model of the order's payments at placement (paid for an order that costs nothing). */
  paymentState: PaymentState;
  paymentStatus: PaymentStatus;
  fulfilmentType: FulfilmentType;
  /** For an order for later, its slot; null for now. */
  requestedTime: Date | null;
  price: OrderPrice;
  /** The delivery zone that priced the order, and its minutes from ready to delivered (none: null). */
  deliveryZone?: { key: string; title: string } | null;
  deliveryEtaMinutes?: number | null;
  /** The language the order was placed in; null (the default) for a menu without languages. */
  language?: string | null;
  /** Where it came from (`online` when left out), the member who took it, the tab it is a round of. */
  channel?: OrderChannel;
  createdBy?: string | null;
  tabUuid?: string | null;
}

/** An order's price in lines, amounts as exact decimal strings. */
export interface OrderPrice {
  itemsSubtotal: string;
  deliveryFee: string;
  discount: string;
  discountCode: string | null;
  discountUuid: string | null;
  serviceCharge: string;
  tax: string;
  taxInclusive: boolean;
  tip: string;
  /** The settings used (tax and service charge rates); null when none applied. */
  rates: Record<string, unknown> | null;
}

export interface NewOrderLine {
  position: number;
  itemUuid: string;
  titleName: string | null;
  category: string | null;
  unitPriceAmount: string;
  /** The chosen options as the line keeps them; [] for none. */
  options: ReadonlyArray<Record<string, unknown>>;
  quantity: number;
  lineTotal: string;
  itemNote: string | null;
  /** The allergens of the item and its chosen options; [] (the default) for none. */
  allergens?: readonly string[];
}

export interface NewOrderEvent {
  field: OrderEventField;
  fromValue: string | null;
  toValue: string | null;
  actorUuid: string | null;
  actor: OrderActor;
  /** Why the service made the change; absent for a person's. */
  reason?: string | null;
}

/** The columns an order update may change: not the read model of its payments, which follows them. */
export type OrderChanges = Partial<Pick<OrderEntity, 'status' | 'ownerNote' | 'estimatedReadyAt'>>;

/** The read model of an order's payments. */
export type OrderPaymentModel = Pick<
  OrderEntity,
  'paymentState' | 'paymentStatus' | 'amountPaid' | 'amountRefunded'
>;

export interface OrderFilter {
  status?: OrderStatus;
  businessUuid?: string;
  menuUuid?: string;
  from?: Date;
  to?: Date;
}

/** A placed order with its lines and first history entry, as the placement's statement answers them. */
type PlacedRow = OrderEntity & {
  placedLines: OrderLineEntity[] | null;
  placedEvents: Array<OrderEventEntity & { createdAt: string }> | null;
};

/** The types of the line columns as the placement writes them. */
const LINE_TYPES = {
  position: 'int',
  itemUuid: 'uuid',
  titleName: 'text',
  category: 'text',
  unitPriceAmount: 'numeric',
  options: 'jsonb',
  quantity: 'int',
  lineTotal: 'numeric',
  itemNote: 'text',
  allergens: 'jsonb',
} as const;

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
      const row: PlacedRow | undefined = await fetchOne(
        manager,
        placeStatement(order, lines, actor),
      );
      if (!row) continue;
      const { placedLines, placedEvents, ...stored } = row;
      return {
        order: stored,
        lines: [...(placedLines ?? [])].sort((a, b) => a.position - b.position),
        events: (placedEvents ?? []).map((event) => ({
          ...event,
          createdAt: new Date(event.createdAt),
        })),
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
    const row = await fetchOne(
      manager,
      db
        .selectFrom('orders')
        .selectAll()
        .select(transactionLock('order', uuid).as('locked'))
        .where('uuid', '=', uuid)
        .forUpdate(),
    );
    if (!row) return null;
    const { locked: _locked, ...order } = row as typeof row & { locked: unknown };
    return order as OrderEntity;
  }

  async updateOrder(
    manager: EntityManager,
    uuid: string,
    changes: OrderChanges,
  ): Promise<OrderEntity> {
    return (await fetchOne(
      manager,
      db
        .updateTable('orders')
        .set({ ...changes, updatedAt: sql<Date>`now()` })
        .where('uuid', '=', uuid)
        .returningAll(),
    ))!;
  }

  /** Writes the read model of the order's payments; answers the order as stored. */
  async updatePaymentModel(
    manager: EntityManager,
    uuid: string,
    model: OrderPaymentModel,
  ): Promise<OrderEntity> {
    return (await fetchOne(
      manager,
      db
        .updateTable('orders')
        .set({ ...model, updatedAt: sql<Date>`now()` })
        .where('uuid', '=', uuid)
        .returningAll(),
    ))!;
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

/**
 * The placement's one statement: the order (nothing when its reference is
 * taken), its lines and its first history entry, answered with the lines and
 * entry as JSON. The placement's hottest write, measured by the benchmark.
 */
export function placeStatement(order: NewOrder, lines: readonly NewOrderLine[], actor: OrderActor) {
  const { price, deliveryData, onpremiseData, deliveryZone, ...columns } = order;
  const lineRows = lines.map((line) => ({
    ...line,
    options: [...line.options],
    allergens: [...(line.allergens ?? [])],
  }));
  return db
    .with('o', (qb) =>
      qb
        .insertInto('orders')
        .values({
          ...columns,
          orderReference: generateOrderReference(),
          deliveryData: jsonb(deliveryData),
          onpremiseData: jsonb(onpremiseData),
          deliveryZone: jsonb(deliveryZone ?? null),
          itemsSubtotal: price.itemsSubtotal,
          deliveryFee: price.deliveryFee,
          discount: price.discount,
          discountCode: price.discountCode,
          discountUuid: price.discountUuid,
          serviceCharge: price.serviceCharge,
          tax: price.tax,
          taxInclusive: price.taxInclusive,
          tip: price.tip,
          pricingRates: jsonb(price.rates),
        })
        .onConflict((conflict) => conflict.column('orderReference').doNothing())
        .returningAll(),
    )
    .with('l', (qb) =>
      qb
        .insertInto('orderLines')
        .columns(['orderUuid', ...(Object.keys(LINE_TYPES) as Array<keyof typeof LINE_TYPES>)])
        .expression((eb) =>
          eb
            .selectFrom(['o', rowsTable(lineRows, LINE_TYPES, 'v')])
            .select([
              'o.uuid',
              'v.position',
              'v.itemUuid',
              'v.titleName',
              'v.category',
              'v.unitPriceAmount',
              'v.options',
              'v.quantity',
              'v.lineTotal',
              'v.itemNote',
              'v.allergens',
            ]),
        )
        .returningAll(),
    )
    .with('e', (qb) =>
      qb
        .insertInto('orderEvents')
        .columns(['orderUuid', 'field', 'fromValue', 'toValue', 'actorUuid', 'actor'])
        .expression((eb) =>
          eb.selectFrom('o').select([
            'o.uuid',
            sql<OrderEventField>`'status'`.as('field'),
            sql<string | null>`NULL`.as('fromValue'),
            'o.status',
            // The member who took a staff order; null for a guest's.
            'o.createdBy as actorUuid',
            sql<OrderActor>`${actor}`.as('actor'),
          ]),
        )
        .returningAll(),
    )
    .selectFrom('o')
    .selectAll('o')
    .select((eb) => [
      eb
        .selectFrom('l')
        .select((lb) =>
          sql<OrderLineEntity[]>`coalesce(json_agg(${jsonBuildObject({
            uuid: lb.ref('l.uuid'),
            orderUuid: lb.ref('l.orderUuid'),
            position: lb.ref('l.position'),
            itemUuid: lb.ref('l.itemUuid'),
            titleName: lb.ref('l.titleName'),
            category: lb.ref('l.category'),
            unitPriceAmount: sql<string>`${lb.ref('l.unitPriceAmount')}::text`,
            options: lb.ref('l.options'),
            quantity: lb.ref('l.quantity'),
            lineTotal: sql<string>`${lb.ref('l.lineTotal')}::text`,
            itemNote: lb.ref('l.itemNote'),
            allergens: lb.ref('l.allergens'),
          })}), '[]')`.as('lines'),
        )
        .as('placedLines'),
      eb
        .selectFrom('e')
        .select((eb) =>
          sql<Array<OrderEventEntity & { createdAt: string }>>`json_agg(${jsonBuildObject({
            id: sql<string>`${eb.ref('e.id')}::text`,
            orderUuid: eb.ref('e.orderUuid'),
            field: eb.ref('e.field'),
            fromValue: eb.ref('e.fromValue'),
            toValue: eb.ref('e.toValue'),
            actorUuid: eb.ref('e.actorUuid'),
            actor: eb.ref('e.actor'),
            reason: eb.ref('e.reason'),
            createdAt: eb.ref('e.createdAt'),
          })})`.as('events'),
        )
        .as('placedEvents'),
    ]);
}

/** A new order's uuid, drawn before its insert so its first payment can name it in the same transaction. */
export function newOrderUuid(): string {
  return randomUUID();
}
