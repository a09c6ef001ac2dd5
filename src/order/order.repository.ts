import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { OrderStatus } from './domain/order-status';
import { PaymentProcessor } from './domain/payment-methods';
import type { FulfilmentType } from './domain/fulfilment-type';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import { OrderActor, OrderEventField } from './entities/order-event.entity';
import type { PaymentCollect } from '../payment';
import type { PaymentColumn } from '../payment';
import {
  EVENT_COLUMNS,
  LINE_COLUMNS,
  LINE_VALUE_COLUMNS,
  ORDER_COLUMNS,
  ORDER_INSERT_COLUMNS,
  ORDER_INSERT_VALUES,
  OrderEventRow,
  PlacedRow,
  REFERENCE_ATTEMPTS,
  compareIds,
  groupBy,
  lineTuples,
  orderParams,
  toEvent,
  toLine,
  toOrder,
} from './order-sql';

export interface NewOrder {
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
  /** How the payment is collected, decided by the payment module at placement. */
  paymentCollect: PaymentCollect;
  paymentInstructions: Record<string, unknown> | null;
  paymentCallbackUrl: string | null;
  paymentAttempts: number;
  fulfilmentType: FulfilmentType;
  /** For an order for later, its slot; null for now. */
  requestedTime: Date | null;
  price: OrderPrice;
  /** The delivery zone that priced the order, and its minutes from ready to delivered. */
  deliveryZone: { key: string; title: string } | null;
  deliveryEtaMinutes: number | null;
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
}

export interface NewOrderEvent {
  field: OrderEventField;
  fromValue: string | null;
  toValue: string | null;
  actorUuid: string | null;
  actor: OrderActor;
}

/**
 * The columns an order update may change. The payment's columns are not among
 * them: the payment module alone writes those, through its transitions.
 */
export type OrderChanges = Partial<
  Omit<
    OrderEntity,
    | 'uuid'
    | 'createdAt'
    | 'updatedAt'
    | 'deliveryData'
    | 'onpremiseData'
    | 'paymentInstructions'
    | 'pricingRates'
    | 'deliveryZone'
    | 'deliveryEtaMinutes'
    | 'paymentCollect'
    | PaymentColumn
  >
>;

export interface OrderFilter {
  status?: OrderStatus;
  businessUuid?: string;
  menuUuid?: string;
  from?: Date;
  to?: Date;
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
    const lineColumns = LINE_VALUE_COLUMNS.map(([name]) => name).join(', ');
    for (let attempt = 0; attempt < REFERENCE_ATTEMPTS; attempt++) {
      const values = orderParams(order);
      const actorParam = `$${values.push(actor)}`;
      const tuples = lineTuples(values, lines);
      const insertLines = tuples.length
        ? `INSERT INTO order_lines (order_uuid, ${lineColumns})
           SELECT o.uuid, v.* FROM o CROSS JOIN (VALUES ${tuples.join(', ')}) AS v (${lineColumns})
           RETURNING ${LINE_COLUMNS}`
        : `SELECT ${LINE_COLUMNS} FROM order_lines WHERE false`;
      const rows: PlacedRow[] = await manager.query(
        `WITH o AS (
           INSERT INTO orders (${ORDER_INSERT_COLUMNS}) VALUES (${ORDER_INSERT_VALUES})
           ON CONFLICT (order_reference) DO NOTHING
           RETURNING ${ORDER_COLUMNS}),
         l AS (${insertLines}),
         e AS (
           INSERT INTO order_events (order_uuid, field, from_value, to_value, actor_uuid, actor)
           SELECT o.uuid, 'status', NULL, o.status, NULL, ${actorParam} FROM o
           RETURNING ${EVENT_COLUMNS})
         SELECT o.*,
           (SELECT coalesce(json_agg(json_build_object('uuid', l.uuid, 'order_uuid', l.order_uuid,
              'position', l.position, 'item_uuid', l.item_uuid, 'title_name', l.title_name,
              'category', l.category, 'unit_price_amount', l.unit_price_amount::text, 'options', l.options,
              'quantity', l.quantity, 'line_total', l.line_total::text, 'item_note', l.item_note)),
              '[]') FROM l) AS placed_lines,
           (SELECT json_agg(json_build_object('id', e.id::text, 'order_uuid', e.order_uuid,
              'field', e.field, 'from_value', e.from_value, 'to_value', e.to_value,
              'actor_uuid', e.actor_uuid, 'actor', e.actor, 'created_at', e.created_at)) FROM e)
              AS placed_events
         FROM o`,
        values,
      );
      if (rows.length === 0) continue;
      const [row] = rows;
      return {
        order: toOrder(row),
        lines: row.placed_lines.map(toLine).sort((a, b) => a.position - b.position),
        events: row.placed_events.map((event) =>
          toEvent({ ...event, created_at: new Date(event.created_at) }),
        ),
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
    const values: unknown[] = [];
    const tuples = events.map((event) => {
      const first = values.length;
      values.push(
        orderUuid,
        event.field,
        event.fromValue,
        event.toValue,
        event.actorUuid,
        event.actor,
      );
      return `(${Array.from({ length: 6 }, (_, i) => `$${first + i + 1}`).join(', ')})`;
    });
    const rows: OrderEventRow[] = await manager.query(
      `INSERT INTO order_events (order_uuid, field, from_value, to_value, actor_uuid, actor)
       VALUES ${tuples.join(', ')}
       RETURNING ${EVENT_COLUMNS}`,
      values,
    );
    return rows.map(toEvent).sort((a, b) => compareIds(a.id, b.id));
  }

  async findByUuid(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OrderEntity | null> {
    return manager.findOneBy(OrderEntity, { uuid });
  }

  /**
   * The order with its row locked until the transaction ends (SELECT … FOR
   * UPDATE), so a concurrent update waits and then sees this one's result.
   */
  async findForUpdate(manager: EntityManager, uuid: string): Promise<OrderEntity | null> {
    return manager.findOne(OrderEntity, { where: { uuid }, lock: { mode: 'pessimistic_write' } });
  }

  async updateOrder(
    manager: EntityManager,
    uuid: string,
    changes: OrderChanges,
  ): Promise<OrderEntity> {
    await manager.update(OrderEntity, { uuid }, changes);
    return manager.findOneByOrFail(OrderEntity, { uuid });
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
    const query = this.dataSource.manager.createQueryBuilder(OrderEntity, 'o');
    if (memberOf.length === 0) {
      query.where('o.ownerUuid = :ownerUuid', { ownerUuid });
    } else {
      query.where('(o.ownerUuid = :ownerUuid OR o.businessUuid IN (:...memberOf))', {
        ownerUuid,
        memberOf,
      });
    }
    if (filter.status) query.andWhere('o.status = :status', { status: filter.status });
    if (filter.businessUuid) {
      query.andWhere('o.businessUuid = :businessUuid', { businessUuid: filter.businessUuid });
    }
    if (filter.menuUuid) query.andWhere('o.menuUuid = :menuUuid', { menuUuid: filter.menuUuid });
    if (filter.from) query.andWhere('o.createdAt >= :from', { from: filter.from });
    // Answers show milliseconds while the column keeps microseconds: `to` covers its whole millisecond.
    if (filter.to) {
      query.andWhere('o.createdAt < :before', { before: new Date(filter.to.getTime() + 1) });
    }
    const [orders, total] = await query
      .orderBy('o.createdAt', 'DESC')
      .addOrderBy('o.uuid', 'DESC')
      .offset((page - 1) * perPage)
      .limit(perPage)
      .getManyAndCount();
    return { orders, total };
  }

  /** Lines of these orders, by order uuid, in cart order. */
  async linesOf(
    orderUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, OrderLineEntity[]>> {
    const lines = orderUuids.length
      ? await manager.find(OrderLineEntity, {
          where: { orderUuid: In([...orderUuids]) },
          order: { orderUuid: 'ASC', position: 'ASC' },
        })
      : [];
    return groupBy(lines, (line) => line.orderUuid);
  }

  /** History of these orders, by order uuid, oldest first. */
  async eventsOf(
    orderUuids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, OrderEventEntity[]>> {
    const events = orderUuids.length
      ? await manager.find(OrderEventEntity, {
          where: { orderUuid: In([...orderUuids]) },
          order: { id: 'ASC' },
        })
      : [];
    return groupBy(events, (event) => event.orderUuid);
  }
}
