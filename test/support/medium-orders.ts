import { randomUUID } from 'node:crypto';
import { NewOrder, NewOrderLine, newOrderUuid } from '../../src/order/order-placement.statement';

/*
 * An order and its lines as the placement writes them, for medium specs of
 * the order repository and of what reads orders (reports).
 */

/** A cash pickup order of `business` (owned by `owner`), 42.50 NGN, unpaid. */
export function newOrderFields(
  owner: string,
  business: string,
  overrides: Partial<NewOrder> = {},
): NewOrder {
  return {
    uuid: newOrderUuid(),
    menuUuid: randomUUID(),
    businessUuid: business,
    ownerUuid: owner,
    paymentProcessor: 'cash',
    amount: '42.50',
    currency: 'NGN',
    customerEmailAddress: 'guest@example.test',
    customerPhoneNumber: null,
    customerRequestedOrderEmailCopy: false,
    generalNote: null,
    deliveryData: { delivery_address: 'Lekki' },
    onpremiseData: null,
    paymentState: 'unpaid',
    paymentStatus: 'unpaid',
    fulfilmentType: 'pickup',
    requestedTime: null,
    price: {
      itemsSubtotal: '40.00',
      deliveryFee: '0.00',
      discount: '0.00',
      discountCode: null,
      discountUuid: null,
      serviceCharge: '2.50',
      tax: '0.00',
      taxInclusive: false,
      tip: '0.00',
      rates: { service_charge: { rate_percent: '6.25' } },
    },
    ...overrides,
  };
}

/** A line of two of one dish with one option. */
export const orderLine = (position: number): NewOrderLine => ({
  position,
  itemUuid: randomUUID(),
  titleName: `Dish ${position}`,
  category: 'Food',
  unitPriceAmount: '10.00',
  options: [
    {
      group: 'size',
      group_title: 'Size',
      option: 'large',
      option_title: 'Large',
      price_delta: '1.50',
    },
  ],
  quantity: 2,
  lineTotal: '20.00',
  itemNote: position === 0 ? 'no onions' : null,
});

/**
 * Grows orders and order_lines by `count` copies of the order `model` and
 * of its lines (references `GROWN-1` …), straight in SQL: tables that have
 * grown since a session made its first plans.
 */
export async function growOrders(
  run: (text: string, params: unknown[]) => Promise<unknown>,
  model: string,
  count: number,
): Promise<void> {
  await run(
    `INSERT INTO orders
     SELECT (jsonb_populate_record(o, jsonb_build_object(
               'uuid', gen_random_uuid(), 'order_reference', 'GROWN-' || g))).*
       FROM orders o, generate_series(1, $2::int) g WHERE o.uuid = $1`,
    [model, count],
  );
  await run(
    `INSERT INTO order_lines
     SELECT (jsonb_populate_record(l, jsonb_build_object(
               'uuid', gen_random_uuid(), 'order_uuid', o.uuid))).*
       FROM order_lines l, orders o
      WHERE l.order_uuid = $1 AND o.order_reference LIKE 'GROWN-%'`,
    [model],
  );
}
