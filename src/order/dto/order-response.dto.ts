import { ApiProperty, PickType } from '@nestjs/swagger';
import { ORDER_STATUSES, PAYMENT_STATUSES } from '../domain/order-status';
import { PAYMENT_PROCESSORS } from '../domain/payment-methods';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from '../entities';

export class OrderLineResponseDto {
  item_uuid!: string;
  /** The item's title when the order was placed. */
  title_name!: string | null;
  /** The item's category when the order was placed (`Delivery` marks a delivery option). */
  category!: string | null;
  /** The item's unit price when the order was placed, two decimals. */
  @ApiProperty({ example: '19.99' })
  unit_price_amount!: string;
  @ApiProperty({ type: 'integer', example: 3 })
  quantity!: number;
  @ApiProperty({ example: '59.97' })
  line_total!: string;
  item_note!: string | null;
}

/** One change of an order: a field, its old and new value, who and when. */
export class OrderHistoryEntryDto {
  @ApiProperty({ enum: ['status', 'payment_status', 'owner_note'] })
  field!: string;
  /** Null for the first status of a new order. */
  from!: string | null;
  to!: string | null;
  /** The user who made the change; null when it was not the owner. */
  by!: string | null;
  /** Who made the change. */
  @ApiProperty({ enum: ['owner', 'guest', 'provider', 'system'] })
  actor!: string;
  at!: string;
}

export class OrderResponseDto {
  uuid!: string;
  /** Short, human readable and unique, e.g. `K7MQ-2XPA`. */
  order_reference!: string;
  @ApiProperty({ enum: ORDER_STATUSES })
  status!: string;
  @ApiProperty({ enum: PAYMENT_STATUSES })
  payment_status!: string;
  menu_uuid!: string;
  business_uuid!: string;
  /** The total computed by the server (D19), two decimals. */
  @ApiProperty({ example: '59.97' })
  amount!: string;
  /** The menu's currency ticker. */
  currency!: string | null;
  @ApiProperty({ enum: PAYMENT_PROCESSORS })
  payment_processor!: string;
  customer_email_address!: string;
  customer_phone_number!: string | null;
  customer_requested_order_email_copy!: boolean;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'string' } })
  delivery_data!: Record<string, unknown> | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'string' } })
  onpremise_data!: Record<string, unknown> | null;
  general_note!: string | null;
  owner_note!: string | null;
  @ApiProperty({ type: [OrderLineResponseDto] })
  items!: OrderLineResponseDto[];
  /** Every change, oldest first (§5.2). */
  @ApiProperty({ type: [OrderHistoryEntryDto] })
  history!: OrderHistoryEntryDto[];
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
  'created_at',
  'updated_at',
] as const) {}

function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
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
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}

export function toOrderLineResponse(line: OrderLineEntity): OrderLineResponseDto {
  return {
    item_uuid: line.itemUuid,
    title_name: line.titleName,
    category: line.category,
    unit_price_amount: line.unitPriceAmount,
    quantity: line.quantity,
    line_total: line.lineTotal,
    item_note: line.itemNote,
  };
}

export function toOrderHistoryEntry(event: OrderEventEntity): OrderHistoryEntryDto {
  return {
    field: event.field,
    from: event.fromValue,
    to: event.toValue,
    by: event.actorUuid,
    actor: event.actor,
    at: iso(event.createdAt),
  };
}

export function toOrderResponse(
  order: OrderEntity,
  lines: readonly OrderLineEntity[],
  events: readonly OrderEventEntity[],
): OrderResponseDto {
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
    customer_email_address: order.customerEmailAddress,
    customer_phone_number: order.customerPhoneNumber,
    customer_requested_order_email_copy: order.customerRequestedOrderEmailCopy,
    delivery_data: order.deliveryData,
    onpremise_data: order.onpremiseData,
    general_note: order.generalNote,
    owner_note: order.ownerNote,
    items: lines.map(toOrderLineResponse),
    history: events.map(toOrderHistoryEntry),
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}
