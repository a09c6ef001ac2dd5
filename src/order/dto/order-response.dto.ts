import { DeliveryZoneRefDto } from '../../entity';
import { ApiProperty, ApiPropertyOptional, OmitType, PickType } from '@nestjs/swagger';
import { FULFILMENT_TYPES } from '../domain/fulfilment-type';
import { ORDER_CHANNELS } from '../entities/order.entity';
import { ORDER_STATUSES } from '../domain/order-status';
import {
  PAYMENT_PROCESSORS,
  PAYMENT_STATUSES,
  PaymentRecordResponseDto,
  PaymentResponseDto,
  PaymentsOfOrder,
  toPaymentRecords,
  toPaymentResponse,
} from '../../payment';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from '../entities';

/** An option chosen on an order line, as it was when the order was placed. */
export class OrderLineOptionDto {
  @ApiProperty({ example: 'size' })
  group!: string;
  @ApiProperty({ example: 'Size' })
  group_title!: string | null;
  @ApiProperty({ example: 'large' })
  option!: string;
  @ApiProperty({ example: 'Large' })
  option_title!: string | null;
  /** What the option added to the unit price, two decimals. */
  @ApiProperty({ example: '1.50' })
  price_delta!: string;
}

export class OrderLineResponseDto {
  /** The line itself (a split of a tab's bill by items names it). */
  line_uuid!: string;
  item_uuid!: string;
  /** The item's title when the order was placed. */
  title_name!: string | null;
  /** The item's category when the order was placed (`Delivery` marks a delivery option). */
  category!: string | null;
  /** The unit price when the order was placed, chosen options included, two decimals. */
  @ApiProperty({ example: '19.99' })
  unit_price_amount!: string;
  /** The chosen options; [] for an item ordered without options. */
  @ApiProperty({ type: [OrderLineOptionDto] })
  options!: OrderLineOptionDto[];
  @ApiProperty({ type: 'integer', example: 3 })
  quantity!: number;
  @ApiProperty({ example: '59.97' })
  line_total!: string;
  item_note!: string | null;
  /** The allergens of the item and its chosen options (EU 1169/2011 Annex II) when it was ordered. */
  @ApiProperty({ type: [String], example: ['gluten', 'milk'] })
  allergens!: string[];
}

/** One kitchen ticket of the order (read it whole through the kitchen's routes). */
export class OrderTicketSummaryDto {
  uuid!: string;
  /** The station's key. */
  @ApiProperty({ example: 'grill' })
  station!: string;
  @ApiProperty({ enum: ['new', 'void'] })
  kind!: 'new' | 'void';
  @ApiProperty({ enum: ['queued', 'preparing', 'ready', 'cancelled'] })
  status!: string;
  @ApiProperty({ type: 'integer', example: 0 })
  printed_count!: number;
  created_at!: string;
}

/** One change of an order: a field, its old and new value, who and when. */
export class OrderHistoryEntryDto {
  /**
   * `payment` entries carry values of `payment.status`; `payment_status`
   * appears only on entries made before payments were collected.
   */
  @ApiProperty({
    enum: ['status', 'payment', 'payment_status', 'owner_note', 'estimated_ready_at'],
  })
  field!: string;
  /** Null for the first status of a new order. */
  from!: string | null;
  to!: string | null;
  /**
   * The user who made the change: the business owner or a member of its
   * team; null for the guest, the payment provider or the service, and in
   * every answer a guest gets (the guest sees who acted by `actor` only).
   */
  by!: string | null;
  /** Who made the change: the owner, a manager or staff member (by their role), the guest, the provider or the service. */
  @ApiProperty({ enum: ['owner', 'manager', 'staff', 'guest', 'provider', 'system'] })
  actor!: string;
  /** Why the service made the change (`not_accepted_in_time`); present only then. */
  @ApiProperty({ required: false, example: 'not_accepted_in_time' })
  reason?: string;
  at!: string;
}

/**
 * The order's price in lines, computed by the server in exact decimals:
 * total = items_subtotal + delivery_fee − discount + service_charge + tax
 * (when not inclusive) + tip. Amounts have two decimals.
 */
export class OrderPricingDto {
  /** The lines other than the delivery line. */
  @ApiProperty({ example: '40.00' })
  items_subtotal!: string;
  /** The delivery line's total, or 0. */
  @ApiProperty({ example: '0.00' })
  delivery_fee!: string;
  /** What the discount code took off, at most items_subtotal. */
  @ApiProperty({ example: '4.00' })
  discount!: string;
  /** The code applied; null for none. */
  @ApiProperty({ type: 'string', nullable: true, example: 'WELCOME10' })
  discount_code!: string | null;
  @ApiProperty({ example: '3.60' })
  service_charge!: string;
  @ApiProperty({ example: '2.97' })
  tax!: string;
  /** True when the tax is included in the prices and not added to the total. */
  tax_inclusive!: boolean;
  @ApiProperty({ example: '0.00' })
  tip!: string;
  /** Equal to the order's amount. */
  @ApiProperty({ example: '42.57' })
  total!: string;
}

/** The order answer's pricing block, from the order's columns. */
export function toOrderPricing(order: OrderEntity): OrderPricingDto {
  return {
    items_subtotal: order.itemsSubtotal,
    delivery_fee: order.deliveryFee,
    discount: order.discount,
    discount_code: order.discountCode,
    service_charge: order.serviceCharge,
    tax: order.tax,
    tax_inclusive: order.taxInclusive,
    tip: order.tip,
    total: order.amount,
  };
}

export class OrderResponseDto {
  uuid!: string;
  /** Short, human readable and unique, e.g. `K7MQ-2XPA`. */
  order_reference!: string;
  @ApiProperty({ enum: ORDER_STATUSES })
  status!: string;
  /**
   * `payment.status` in fewer words: unpaid, partially_paid, paid,
   * partially_refunded, refunded (and on_tab for a round of a table's tab).
   */
  @ApiProperty({ enum: PAYMENT_STATUSES })
  payment_status!: string;
  /** How the order is paid and where its payments stand, all of them counted. */
  @ApiProperty({ type: PaymentResponseDto })
  payment!: PaymentResponseDto;
  /** Every attempt to collect money for the order, oldest first, each with its refunds. */
  @ApiProperty({ type: [PaymentRecordResponseDto] })
  payments!: PaymentRecordResponseDto[];
  menu_uuid!: string;
  business_uuid!: string;
  /** The total the server computed (the pricing block's total), two decimals. */
  @ApiProperty({ example: '59.97' })
  amount!: string;
  /** The price in lines: items, delivery, discount, service charge, tax and tip. */
  @ApiProperty({ type: OrderPricingDto })
  pricing!: OrderPricingDto;
  /** The menu's ISO 4217 code when it names one, else its currency ticker as stored. */
  currency!: string | null;
  @ApiProperty({ enum: PAYMENT_PROCESSORS })
  payment_processor!: string;
  customer_email_address!: string;
  customer_phone_number!: string | null;
  customer_requested_order_email_copy!: boolean;
  /** As sent: the address and identifier, and for a delivery by zone its latitude and longitude (numbers) or area. */
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
  })
  delivery_data!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'string' } })
  onpremise_data!: Record<string, unknown> | null;
  general_note!: string | null;
  owner_note!: string | null;
  /** How the order is handed over: sent by the guest or inferred at placement. */
  @ApiProperty({ enum: FULFILMENT_TYPES })
  fulfilment_type!: string;
  /** The slot an order for later was placed for; null for an order for now. */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  requested_time!: string | null;
  /**
   * When the kitchen expects the order ready: set by the business, or on
   * acceptance (then + the menu's prep time for an order for now, the
   * requested time for an order for later); null until then.
   */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  estimated_ready_at!: string | null;
  /** The delivery zone that priced the delivery, as it was when the order was placed; null without zones. */
  @ApiProperty({ type: DeliveryZoneRefDto, nullable: true })
  delivery_zone!: DeliveryZoneRefDto | null;
  /**
   * When the delivery is expected: `estimated_ready_at` plus the zone's
   * minutes from ready to delivered; null until the ready time is known, and
   * for an order without a zone or a zone that names no such minutes.
   */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  estimated_delivery_at!: string | null;
  /** The language the order was placed in, among the menu's; null for a menu without languages. */
  @ApiProperty({ type: 'string', nullable: true, example: 'fr' })
  language!: string | null;
  @ApiProperty({ type: [OrderLineResponseDto] })
  items!: OrderLineResponseDto[];
  /** Every change, oldest first. */
  @ApiProperty({ type: [OrderHistoryEntryDto] })
  history!: OrderHistoryEntryDto[];
  /**
   * The order's kitchen tickets, one per station, oldest first, in the
   * business's views of the order; absent until the order has any (it is
   * accepted).
   */
  @ApiPropertyOptional({ type: [OrderTicketSummaryDto] })
  tickets?: OrderTicketSummaryDto[];
  /** Where the order came from: `online` (the guest's own), or `phone`, `walk_in`, `waiter` (taken by the team). */
  @ApiProperty({ enum: ORDER_CHANNELS })
  channel!: string;
  /**
   * The owner or team member who took the order; null for a guest's. Left
   * out of every answer a guest gets (the placement's included).
   */
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, required: false })
  created_by?: string | null;
  /** The table's tab this order is a round of; null for an order paid on its own. */
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  tab_uuid!: string | null;
  created_at!: string;
  updated_at!: string;
}

/** What an SSE event carries: the order without its lines and history (fetch those by uuid). */
export class OrderSummaryDto extends PickType(OrderResponseDto, [
  'uuid',
  'order_reference',
  'status',
  'payment_status',
  'menu_uuid',
  'business_uuid',
  'amount',
  'currency',
  'payment_processor',
  'fulfilment_type',
  'requested_time',
  'estimated_ready_at',
  'delivery_zone',
  'estimated_delivery_at',
  'created_at',
  'updated_at',
] as const) {}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function fulfilmentFields(
  order: OrderEntity,
): Pick<
  OrderResponseDto,
  | 'fulfilment_type'
  | 'requested_time'
  | 'estimated_ready_at'
  | 'delivery_zone'
  | 'estimated_delivery_at'
> {
  const ready = order.estimatedReadyAt ? new Date(order.estimatedReadyAt) : null;
  const eta = order.deliveryEtaMinutes;
  return {
    fulfilment_type: order.fulfilmentType,
    requested_time: order.requestedTime ? iso(order.requestedTime) : null,
    estimated_ready_at: ready ? ready.toISOString() : null,
    delivery_zone: order.deliveryZone ?? null,
    // R79: the delivery follows the ready time by the zone's minutes.
    estimated_delivery_at:
      ready && eta !== null && eta !== undefined
        ? new Date(ready.getTime() + eta * 60_000).toISOString()
        : null,
  };
}

export function toOrderSummary(order: OrderEntity): OrderSummaryDto {
  return {
    uuid: order.uuid,
    order_reference: order.orderReference,
    status: order.status,
    payment_status: order.paymentStatus,
    menu_uuid: order.menuUuid,
    business_uuid: order.businessUuid,
    amount: order.amount,
    currency: order.currency,
    payment_processor: order.paymentProcessor,
    ...fulfilmentFields(order),
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}

export function toOrderLineResponse(line: OrderLineEntity): OrderLineResponseDto {
  return {
    line_uuid: line.uuid,
    item_uuid: line.itemUuid,
    title_name: line.titleName,
    category: line.category,
    unit_price_amount: line.unitPriceAmount,
    options: (line.options ?? []) as unknown as OrderLineOptionDto[],
    quantity: line.quantity,
    line_total: line.lineTotal,
    item_note: line.itemNote,
    allergens: line.allergens ?? [],
  };
}

export function toOrderHistoryEntry(event: OrderEventEntity): OrderHistoryEntryDto {
  return {
    field: event.field,
    from: event.fromValue,
    to: event.toValue,
    by: event.actorUuid,
    actor: event.actor,
    ...(event.reason ? { reason: event.reason } : {}),
    at: iso(event.createdAt),
  };
}

/** The parts of an order an answer is made of: the order, its lines, history and payments. */
export interface OrderParts {
  lines: readonly OrderLineEntity[];
  events: readonly OrderEventEntity[];
  payments: PaymentsOfOrder;
  /** The order's kitchen tickets; none when not read. */
  tickets?: readonly OrderTicketSummaryDto[];
}

export function toOrderResponse(order: OrderEntity, parts: OrderParts): OrderResponseDto {
  const { lines, events, payments } = parts;
  return {
    uuid: order.uuid,
    order_reference: order.orderReference,
    status: order.status,
    payment_status: order.paymentStatus,
    payment: toPaymentResponse(order, payments),
    payments: toPaymentRecords(payments),
    menu_uuid: order.menuUuid,
    business_uuid: order.businessUuid,
    amount: order.amount,
    pricing: toOrderPricing(order),
    currency: order.currency,
    payment_processor: order.paymentProcessor,
    customer_email_address: order.customerEmailAddress,
    customer_phone_number: order.customerPhoneNumber,
    customer_requested_order_email_copy: order.customerRequestedOrderEmailCopy,
    delivery_data: order.deliveryData,
    onpremise_data: order.onpremiseData,
    general_note: order.generalNote,
    owner_note: order.ownerNote,
    ...fulfilmentFields(order),
    language: order.language ?? null,
    items: lines.map(toOrderLineResponse),
    history: events.map(toOrderHistoryEntry),
    channel: order.channel ?? 'online',
    created_by: order.createdBy ?? null,
    tab_uuid: order.tabUuid ?? null,
    ...(parts.tickets?.length ? { tickets: [...parts.tickets] } : {}),
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}

/** The tab a placed round joined (or opened). */
export class PlacedTabDto {
  uuid!: string;
  /** The party's capability for the tab: send it as `tab_token` with the next round, or `x-tab-token`. */
  tab_token!: string;
}

/** The placement's answer: the order and the guest's token for it. */
export class PlacedOrderResponseDto extends OrderResponseDto {
  /**
   * The guest's capability for this one order: send it as `x-order-token`
   * (or `?order_token=`) to read the order, follow its stream and cancel it
   * while pending. Every replay of the placement answers the same token; it
   * is derived from the order, never stored.
   */
  @ApiProperty({ example: 'kq3V0mS2pDq1R8xkz6m3qN4v9yU7tW1bC5dE8fG0hJ4' })
  order_token!: string;

  /** For a round of a table's tab: the tab and the party's token for its later rounds, its bill and its stream. */
  @ApiProperty({ type: PlacedTabDto, required: false })
  tab?: PlacedTabDto;
}

/**
 * The order as its guest may see it: everything but the owner's own note;
 * its history names who acted by role only (`by` is always null).
 */
export class GuestOrderResponseDto extends OmitType(OrderResponseDto, [
  'owner_note',
  'tickets',
  'created_by',
] as const) {}

/**
 * The history as the guest sees it: without the owner's note and its
 * entries, and without the uuid of the owner or team member who acted
 * (`by` is null; the `actor` role stays).
 */
// R37: the guest's view.
export function toGuestHistory(events: readonly OrderEventEntity[]): OrderHistoryEntryDto[] {
  return events
    .filter((event) => event.field !== 'owner_note')
    .map((event) => ({ ...toOrderHistoryEntry(event), by: null }));
}

/**
 * The one mapping of every answer a guest gets about their order (its read,
 * its cancel, the payment verify and checkout retry): the owner's note and
 * the history entries of that note are the restaurant's own, and the uuids
 * of the people who work there are theirs; neither leaves through a
 * guest's credential.
 */
export function toGuestOrderResponse(order: OrderEntity, parts: OrderParts): GuestOrderResponseDto {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { owner_note, created_by, history, tickets, ...rest } = toOrderResponse(order, {
    ...parts,
    events: [],
  });
  return { ...rest, history: toGuestHistory(parts.events) };
}
