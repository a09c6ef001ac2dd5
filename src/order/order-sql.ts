import { generateOrderReference } from './domain/order-reference';
import { OrderStatus, PaymentStatus } from './domain/order-status';
import { PaymentProcessor } from './domain/payment-methods';
import type { FulfilmentType } from './domain/fulfilment-type';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import { OrderActor, OrderEventField } from './entities/order-event.entity';
import type { PaymentCollect, PaymentState } from '../payment';
import type { NewOrder, NewOrderLine } from './order.repository';

/*
 * The SQL pieces of the order repository: column lists, row shapes and
 * their mapping to entities, and the parameters of the placing insert.
 */

/** Tries before giving up on drawing a free order reference; a clash is already rare. */
export const REFERENCE_ATTEMPTS = 8;

export const ORDER_COLUMNS = `uuid, order_reference, menu_uuid, business_uuid, owner_uuid, status,
  payment_status, payment_processor, amount, currency, customer_email_address,
  customer_phone_number, customer_requested_order_email_copy, general_note, owner_note,
  delivery_data, onpremise_data, payment_state, payment_collect, payment_reference,
  payment_attempts, payment_authorization_url, payment_access_code, payment_callback_url,
  payment_instructions, amount_paid, amount_refunded, paid_at, payment_transaction_id,
  payment_error, fulfilment_type, requested_time, estimated_ready_at, items_subtotal,
  delivery_fee, discount, discount_code, discount_uuid, service_charge, tax, tax_inclusive, tip,
  pricing_rates, delivery_zone, delivery_eta_minutes, created_at, updated_at`;
export const LINE_COLUMNS = `uuid, order_uuid, position, item_uuid, title_name, category,
  unit_price_amount, options, quantity, line_total, item_note`;
export const EVENT_COLUMNS =
  'id, order_uuid, field, from_value, to_value, actor_uuid, actor, created_at';

export interface OrderRow {
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
  fulfilment_type: FulfilmentType;
  requested_time: Date | null;
  estimated_ready_at: Date | null;
  items_subtotal: string;
  delivery_fee: string;
  discount: string;
  discount_code: string | null;
  discount_uuid: string | null;
  service_charge: string;
  tax: string;
  tax_inclusive: boolean;
  tip: string;
  pricing_rates: Record<string, unknown> | null;
  delivery_zone: { key: string; title: string } | null;
  delivery_eta_minutes: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderLineRow {
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

export interface OrderEventRow {
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
export function toOrder(row: OrderRow): OrderEntity {
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
    fulfilmentType: row.fulfilment_type,
    requestedTime: row.requested_time,
    estimatedReadyAt: row.estimated_ready_at,
    itemsSubtotal: row.items_subtotal,
    deliveryFee: row.delivery_fee,
    discount: row.discount,
    discountCode: row.discount_code,
    discountUuid: row.discount_uuid,
    serviceCharge: row.service_charge,
    tax: row.tax,
    taxInclusive: row.tax_inclusive,
    tip: row.tip,
    pricingRates: row.pricing_rates,
    deliveryZone: row.delivery_zone,
    deliveryEtaMinutes: row.delivery_eta_minutes,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

export function toLine(row: OrderLineRow): OrderLineEntity {
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

export function toEvent(row: OrderEventRow): OrderEventEntity {
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
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The delivery zone's columns, numbered after the others' placeholders. */
const DELIVERY_ZONE_COLUMNS: Array<[string, string]> = [
  ['delivery_zone', 'jsonb'],
  ['delivery_eta_minutes', 'int'],
];

/** The order columns an insert writes, and their values ($1 is the order reference). */
export const ORDER_INSERT_COLUMNS = `order_reference, menu_uuid, business_uuid, owner_uuid, payment_processor,
  amount, currency, customer_email_address, customer_phone_number,
  customer_requested_order_email_copy, general_note, delivery_data, onpremise_data,
  payment_collect, payment_instructions, payment_callback_url, payment_attempts,
  fulfilment_type, requested_time, items_subtotal, delivery_fee, discount, discount_code,
  discount_uuid, service_charge, tax, tax_inclusive, tip, pricing_rates, ${DELIVERY_ZONE_COLUMNS.map(([name]) => name).join(', ')}`;
const PRICED_ORDER_VALUES =
  '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15::jsonb, $16, $17, ' +
  '$18, $19::timestamptz, $20::numeric, $21::numeric, $22::numeric, $23, $24::uuid, $25::numeric, ' +
  '$26::numeric, $27::boolean, $28::numeric, $29::jsonb';
export const ORDER_INSERT_VALUES = [
  PRICED_ORDER_VALUES,
  ...DELIVERY_ZONE_COLUMNS.map(
    ([, type], i) => `$${PRICED_ORDER_VALUES.split(',').length + i + 1}::${type}`,
  ),
].join(', ');

export function orderParams(order: NewOrder): unknown[] {
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
    order.fulfilmentType,
    order.requestedTime,
    order.price.itemsSubtotal,
    order.price.deliveryFee,
    order.price.discount,
    order.price.discountCode,
    order.price.discountUuid,
    order.price.serviceCharge,
    order.price.tax,
    order.price.taxInclusive,
    order.price.tip,
    order.price.rates === null ? null : JSON.stringify(order.price.rates),
    order.deliveryZone === null ? null : JSON.stringify(order.deliveryZone),
    order.deliveryEtaMinutes,
  ];
}

/** The line columns after order_uuid, with the type each value is cast to. */
export const LINE_VALUE_COLUMNS: Array<[string, string]> = [
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

export function lineParams(line: NewOrderLine): unknown[] {
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
export function lineTuples(values: unknown[], lines: readonly NewOrderLine[]): string[] {
  return lines.map((line) => {
    const first = values.length;
    values.push(...lineParams(line));
    const cells = LINE_VALUE_COLUMNS.map(([, type], i) => `$${first + i + 1}::${type}`);
    return `(${cells.join(', ')})`;
  });
}

/** A placed order with its lines and history as one statement answers them (JSON of the CTEs). */
export interface PlacedRow extends OrderRow {
  placed_lines: OrderLineRow[];
  placed_events: Array<Omit<OrderEventRow, 'created_at'> & { created_at: string }>;
}

export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
