/**
 * The order bodies of the bench's placements: P3's five lines with options
 * (the same on every menu of P3's dishes: P5's card orders, P13's tab
 * rounds) and P3 priced's dine-in orders with their code.
 */
import { DISCOUNT } from './seed-priced';
import { chosenOptions, OPTION_GROUPS, Seeded, SeededItem } from './seed';

/** Where a P3 body is served: its table, and the tab it is a round of (P13). */
export interface OrderTable {
  number: number;
  tabToken?: string;
}

/**
 * P3's order `start`: five lines of the menu's dishes from `start` on, each
 * choosing a size and one or two extras, priced as the service prices them,
 * for a table (`start` % 20 unless given).
 */
export function orderBody(
  menuUuid: string,
  items: readonly SeededItem[],
  start: number,
  paymentProcessor = 'cash',
  table: OrderTable = { number: start % 20 },
): Record<string, unknown> {
  const lines: Array<{ item: SeededItem; quantity: number }> = [];
  for (let i = 0; i < 5; i++) {
    const item = items[(start + i) % items.length];
    lines.push({ item, quantity: Math.min(item.minimum + (i % 2), item.maximum) });
  }
  const deltaCents = (line: number) =>
    chosenOptions(line).reduce((sum, choice) => {
      const group = OPTION_GROUPS.find((g) => g.key === choice.group)!;
      const option = group.options.find((o) => o.key === choice.option)!;
      return sum + Math.round(Number(option.price_delta) * 100);
    }, 0);
  const cents = lines.reduce(
    (sum, line, i) =>
      sum + (Math.round(Number(line.item.unitPrice) * 100) + deltaCents(i)) * line.quantity,
    0,
  );
  return {
    menu_uuid: menuUuid,
    amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    payment_processor: paymentProcessor,
    customer_email_address: `guest${start}@example.test`,
    customer_phone_number: '+2348000000000',
    customer_requested_order_email_copy: false,
    general_note: 'No onions, please.',
    delivery_data: { delivery_identifier: '', delivery_address: '' },
    onpremise_data: {
      customer_onpremise_location_type: 'table',
      customer_onpremise_location_number: String(table.number),
      customer_onpremise_location: `table_${table.number}`,
    },
    ...(table.tabToken ? { tab_token: table.tabToken } : {}),
    cart_items: lines.map(({ item, quantity }, i) => ({
      uuid: item.uuid,
      quantity,
      item_note: '',
      options: chosenOptions(i),
    })),
  };
}

/** P3's bodies, one per dish of the 100-item menu. */
export function orderBodies(seeded: Seeded, paymentProcessor = 'cash'): string[] {
  return seeded.smallMenuItems.map((_, start) =>
    JSON.stringify(orderBody(seeded.smallMenuUuid, seeded.smallMenuItems, start, paymentProcessor)),
  );
}

/** Half away from zero, for the positive amounts of the bench: (numerator / denominator) in cents. */
function roundedCents(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * Dine-in orders of 5 lines at the priced business with its code, their
 * amounts computed as the service prices them (integer cents, so exact):
 * 10 % off the items, 10 % service on the rest, 7.5 % VAT on both.
 */
export function pricedOrderBodies(seeded: Seeded): string[] {
  const items = seeded.priced.items;
  return items.map((_, start) => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      item: items[(start + i) % items.length],
      quantity: 1 + (i % 2),
    }));
    const subtotal = lines.reduce(
      (sum, line) => sum + Math.round(Number(line.item.unitPrice) * 100) * line.quantity,
      0,
    );
    const discount = roundedCents(subtotal * 10, 100);
    const service = roundedCents((subtotal - discount) * 10, 100);
    const tax = roundedCents((subtotal - discount + service) * 75, 1000);
    const cents = subtotal - discount + service + tax;
    return JSON.stringify({
      menu_uuid: seeded.priced.menuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: 'cash',
      customer_email_address: `guest${start}@example.test`,
      discount_code: DISCOUNT.code,
      onpremise_data: {
        customer_onpremise_location_type: 'table',
        customer_onpremise_location_number: String(start % 20),
        customer_onpremise_location: `table_${start % 20}`,
      },
      cart_items: lines.map(({ item, quantity }) => ({ uuid: item.uuid, quantity })),
    });
  });
}
