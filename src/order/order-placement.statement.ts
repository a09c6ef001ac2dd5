import { randomUUID } from 'node:crypto';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import { preparedQuery } from '../database/prepared-query';
import { jsonb, rowsTable, sql } from '../database/query-builder';
import type { PaymentProcessor, PaymentState, PaymentStatus } from '../payment';
import { generateOrderReference } from './domain/order-reference';
import type { FulfilmentType } from './domain/fulfilment-type';
import { OrderEntity, OrderLineEntity } from './entities';
import type { OrderChannel } from './entities/order.entity';
import { OrderActor, OrderEventField } from './entities/order-event.entity';
import { db, insertedEventsJson, OrderEventJson } from './order-tables';

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

/** A placed order with its lines and first history entry, as the placement's statement answers them. */
export type PlacedRow = OrderEntity & {
  placedLines: OrderLineEntity[] | null;
  placedEvents: OrderEventJson[] | null;
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

/** What the placement's statement writes. */
interface Placement {
  order: NewOrder;
  /** Drawn for each attempt: a clash with a taken one inserts nothing. */
  orderReference: string;
  lines: ReadonlyArray<Required<NewOrderLine>>;
  actor: OrderActor;
}

/**
 * The placement's one statement: the order (nothing when its reference is
 * taken), its lines and its first history entry, answered with the lines and
 * entry as JSON. The placement's hottest write, measured by the benchmark.
 */
export function placeStatement(order: NewOrder, lines: readonly NewOrderLine[], actor: OrderActor) {
  return placement({
    order,
    orderReference: generateOrderReference(),
    lines: lines.map((line) => ({
      ...line,
      options: [...line.options],
      allergens: [...(line.allergens ?? [])],
    })),
    actor,
  });
}

/** Built and compiled once for each set of the order's columns present; each placement binds its values. */
const placement = preparedQuery(buildPlacement, { expand: ['order', 'order.price'] });

function buildPlacement({ order, orderReference, lines, actor }: Placement) {
  const { price, deliveryData, onpremiseData, deliveryZone, ...columns } = order;
  return db
    .with('o', (qb) =>
      qb
        .insertInto('orders')
        .values({
          ...columns,
          orderReference,
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
            .selectFrom(['o', rowsTable(lines, LINE_TYPES, 'v')])
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
      eb.selectFrom('e').select(insertedEventsJson().as('events')).as('placedEvents'),
    ]);
}

/** A new order's uuid, drawn before its insert so its first payment can name it in the same transaction. */
export function newOrderUuid(): string {
  return randomUUID();
}
