import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { generateOrderReference } from './domain/order-reference';
import { OrderStatus, PaymentStatus } from './domain/order-status';
import { PaymentProcessor } from './domain/payment-methods';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import { OrderActor, OrderEventField } from './entities/order-event.entity';
import type { PaymentCollect, PaymentState } from '../payment/domain/payment-state';

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

/** The columns an update may change: status, note, and the payment's columns. */
export type OrderChanges = Partial<
  Omit<
    OrderEntity,
    'uuid' | 'createdAt' | 'updatedAt' | 'deliveryData' | 'onpremiseData' | 'paymentInstructions'
  >
>;

export interface OrderFilter {
  status?: OrderStatus;
  businessUuid?: string;
  menuUuid?: string;
  from?: Date;
  to?: Date;
}

/** Tries before giving up on drawing a free order reference; a clash is already rare. */
const REFERENCE_ATTEMPTS = 8;

const ORDER_COLUMNS = `uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
  payment_status, payment_processor, amount, currency, customer_email_address,
  customer_phone_number, customer_requested_order_email_copy, general_note, owner_note,
  delivery_data, onpremise_data, payment_state, payment_collect, payment_reference,
  payment_attempts, payment_authorization_url, payment_access_code, payment_callback_url,
  payment_instructions, amount_paid, amount_refunded, paid_at, payment_transaction_id,
  payment_error, created_at, updated_at`;
const LINE_COLUMNS = `uuid, order_uuid, position, item_uuid, title_name, category,
  unit_price_amount, options, quantity, line_total, item_note`;
const EVENT_COLUMNS = 'id, order_uuid, field, from_value, to_value, actor_uuid, actor, created_at';

interface OrderRow {
  uuid: string;
  order_reference: string;
  menu_uuid: string;
  business_uuid: string;
  owner_uuid: string;
  status: OrderStatus;
  payment_status: PaymentStatus;
  payment_processor: PaymentProcessor;
  amount: string;
  currency: string | null;
  customer_email_address: string;
  customer_phone_number: string | null;
  customer_requested_order_email_copy: boolean;
  general_note: string | null;
  owner_note: string | null;
  delivery_data: Record<string, unknown> | null;
  onpremise_data: Record<string, unknown> | null;
  payment_state: PaymentState;
  payment_collect: PaymentCollect;
  payment_reference: string | null;
  payment_attempts: number;
  payment_authorization_url: string | null;
  payment_access_code: string | null;
  payment_callback_url: string | null;
  payment_instructions: Record<string, unknown> | null;
  amount_paid: string;
  amount_refunded: string;
  paid_at: Date | null;
  payment_transaction_id: string | null;
  payment_error: string | null;
  created_at: Date;
  updated_at: Date;
}

interface OrderLineRow {
  uuid: string;
  order_uuid: string;
  position: number;
  item_uuid: string;
  title_name: string | null;
  category: string | null;
  unit_price_amount: string;
  options: Array<Record<string, unknown>>;
  quantity: number;
  line_total: string;
  item_note: string | null;
}

interface OrderEventRow {
  id: string;
  order_uuid: string;
  field: OrderEventField;
  from_value: string | null;
  to_value: string | null;
  actor_uuid: string | null;
  actor: OrderActor;
  created_at: Date;
}

/*
 * The writes of order placement use plain SQL with RETURNING: one round trip
 * each, and none of the query building of the entity manager, on the
 * hottest write path of the service.
 */
function toOrder(row: OrderRow): OrderEntity {
  return Object.assign(new OrderEntity(), {
    uuid: row.uuid,
    orderReference: row.order_reference,
    menuUuid: row.menu_uuid,
    businessUuid: row.business_uuid,
    ownerUuid: row.owner_uuid,
    status: row.status,
    paymentStatus: row.payment_status,
    paymentProcessor: row.payment_processor,
    amount: row.amount,
    currency: row.currency,
    customerEmailAddress: row.customer_email_address,
    customerPhoneNumber: row.customer_phone_number,
    customerRequestedOrderEmailCopy: row.customer_requested_order_email_copy,
    generalNote: row.general_note,
    ownerNote: row.owner_note,
    deliveryData: row.delivery_data,
    onpremiseData: row.onpremise_data,
    paymentState: row.payment_state,
    paymentCollect: row.payment_collect,
    paymentReference: row.payment_reference,
    paymentAttempts: row.payment_attempts,
    paymentAuthorizationUrl: row.payment_authorization_url,
    paymentAccessCode: row.payment_access_code,
    paymentCallbackUrl: row.payment_callback_url,
    paymentInstructions: row.payment_instructions,
    amountPaid: row.amount_paid,
    amountRefunded: row.amount_refunded,
    paidAt: row.paid_at,
    paymentTransactionId: row.payment_transaction_id,
    paymentError: row.payment_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

function toLine(row: OrderLineRow): OrderLineEntity {
  return Object.assign(new OrderLineEntity(), {
    uuid: row.uuid,
    orderUuid: row.order_uuid,
    position: row.position,
    itemUuid: row.item_uuid,
    titleName: row.title_name,
    category: row.category,
    unitPriceAmount: row.unit_price_amount,
    options: row.options,
    quantity: row.quantity,
    lineTotal: row.line_total,
    itemNote: row.item_note,
  });
}

function toEvent(row: OrderEventRow): OrderEventEntity {
  return Object.assign(new OrderEventEntity(), {
    id: String(row.id),
    orderUuid: row.order_uuid,
    field: row.field,
    fromValue: row.from_value,
    toValue: row.to_value,
    actorUuid: row.actor_uuid,
    actor: row.actor,
    createdAt: row.created_at,
  });
}

/** Event ids are bigint, read as decimal text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The order columns an insert writes, and their values ($1 is the order reference). */
const ORDER_INSERT_COLUMNS = `order_reference, menu_uuid, business_uuid, owner_uuid, payment_processor,
  amount, currency, customer_email_address, customer_phone_number,
  customer_requested_order_email_copy, general_note, delivery_data, onpremise_data,
  payment_collect, payment_instructions, payment_callback_url, payment_attempts`;
const ORDER_INSERT_VALUES =
  '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15::jsonb, $16, $17';

function orderParams(order: NewOrder): unknown[] {
  return [
    generateOrderReference(),
    order.menuUuid,
    order.businessUuid,
    order.ownerUuid,
    order.paymentProcessor,
    order.amount,
    order.currency,
    order.customerEmailAddress,
    order.customerPhoneNumber,
    order.customerRequestedOrderEmailCopy,
    order.generalNote,
    order.deliveryData === null ? null : JSON.stringify(order.deliveryData),
    order.onpremiseData === null ? null : JSON.stringify(order.onpremiseData),
    order.paymentCollect,
    order.paymentInstructions === null ? null : JSON.stringify(order.paymentInstructions),
    order.paymentCallbackUrl,
    order.paymentAttempts,
  ];
}

/** The line columns after order_uuid, with the type each value is cast to. */
const LINE_VALUE_COLUMNS: Array<[string, string]> = [
  ['position', 'int'],
  ['item_uuid', 'uuid'],
  ['title_name', 'text'],
  ['category', 'text'],
  ['unit_price_amount', 'numeric'],
  ['options', 'jsonb'],
  ['quantity', 'int'],
  ['line_total', 'numeric'],
  ['item_note', 'text'],
];

function lineParams(line: NewOrderLine): unknown[] {
  return [
    line.position,
    line.itemUuid,
    line.titleName,
    line.category,
    line.unitPriceAmount,
    JSON.stringify(line.options),
    line.quantity,
    line.lineTotal,
    line.itemNote,
  ];
}

/** `(($n::int), …)` tuples of these lines' values, appended to `values`. */
function lineTuples(values: unknown[], lines: readonly NewOrderLine[]): string[] {
  return lines.map((line) => {
    const first = values.length;
    values.push(...lineParams(line));
    const cells = LINE_VALUE_COLUMNS.map(([, type], i) => `$${first + i + 1}::${type}`);
    return `(${cells.join(', ')})`;
  });
}

/** A placed order with its lines and history as one statement answers them (JSON of the CTEs). */
interface PlacedRow extends OrderRow {
  placed_lines: OrderLineRow[];
  placed_events: Array<Omit<OrderEventRow, 'created_at'> & { created_at: string }>;
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

  /**
   * Where the owner's new-order alert goes. The account tables belong to the
   * account module; this reads the two columns it needs, inside the caller's
   * transaction.
   */
  async ownerContact(
    manager: EntityManager,
    userUuid: string,
  ): Promise<{ email: string; name: string } | null> {
    const rows: Array<{ email: string; name: string }> = await manager.query(
      'SELECT email, name FROM users WHERE uuid = $1',
      [userUuid],
    );
    return rows[0] ?? null;
  }
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
