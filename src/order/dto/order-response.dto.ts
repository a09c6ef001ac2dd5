import { DeliveryZoneRefDto } from '../../entity';
import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
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
import { iso } from './iso-time';
import { OrderHistoryEntryDto, toOrderHistoryEntry } from './order-history-entry.dto';
import { OrderLineResponseDto, toOrderLineResponse } from './order-line-response.dto';
import { OrderPricingDto, toOrderPricing } from './order-pricing.dto';
import { OrderTicketSummaryDto } from './order-ticket-summary.dto';

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
