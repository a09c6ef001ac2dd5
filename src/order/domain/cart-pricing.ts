import { formatMoney, lineTotal, MAX_AMOUNT, Money, parsePrice, sum } from './money';

/** Rule 3: the most lines one order may have. */
export const MAX_CART_LINES = 100;

/** The parts of a menu item record that pricing reads. */
export interface OrderableItem {
  uuid: string;
  titleName: string | null;
  extraData: Record<string, unknown>;
}

export interface CartLineInput {
  uuid: string;
  quantity: number;
  item_note?: string | null;
}

/** A line as it is stored: a snapshot of the item at the moment of the order (D21). */
export interface PricedLine {
  position: number;
  itemUuid: string;
  titleName: string | null;
  category: string | null;
  unitPrice: Money;
  quantity: number;
  lineTotal: Money;
  itemNote: string | null;
}

export interface PricingProblem {
  field: string;
  message: string;
  [extra: string]: unknown;
}

export type CartPricing =
  { ok: true; lines: PricedLine[]; total: Money } | { ok: false; problems: PricingProblem[] };

/** Item quantities are integers or strings holding one (API.md §4); anything else counts as unset. */
function readCount(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) return Number(value);
  return undefined;
}

function readText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The source marks delivery options with the category `Delivery` (§2.4). */
export function isDeliveryItem(item: OrderableItem): boolean {
  const category = item.extraData.category;
  return typeof category === 'string' && category.trim().toLowerCase() === 'delivery';
}

function rangeText(minimum: number, maximum: number | undefined): string {
  return maximum === undefined ? `at least ${minimum}` : `${minimum}–${maximum}`;
}

/**
 * Rules 3 and 4 (D19): every line must name a public item of the menu (the
 * caller passes only those), with a chargeable price and a quantity inside the
 * item's minimum and maximum; at most one delivery line. The total is computed
 * exactly from the items' prices, never taken from the client. Every problem
 * is reported at once, each naming its line.
 */
export function priceCart(
  cart: readonly CartLineInput[],
  itemsByUuid: ReadonlyMap<string, OrderableItem>,
): CartPricing {
  const problems: PricingProblem[] = [];
  const lines: PricedLine[] = [];
  const orderedSoFar = new Map<string, number>();
  const deliveryLines: number[] = [];

  cart.forEach((input, index) => {
    const label = `Line ${index + 1}`;
    const item = itemsByUuid.get(input.uuid.toLowerCase());
    if (!item) {
      problems.push({
        field: `cart_items.${index}.uuid`,
        message: `${label}: item ${input.uuid} is not an available item of this menu.`,
        item_uuid: input.uuid,
      });
      return;
    }
    const name = item.titleName ? `"${item.titleName}"` : `item ${item.uuid}`;
    const unitPrice = parsePrice(item.extraData.unit_price_amount);
    if (!unitPrice) {
      problems.push({
        field: `cart_items.${index}.uuid`,
        message: `${label}: ${name} has no valid price and cannot be ordered.`,
        item_uuid: item.uuid,
      });
      return;
    }
    const minimum = Math.max(readCount(item.extraData.minimum_quantity_per_order) ?? 1, 1);
    const maximum = readCount(item.extraData.maximum_quantity_per_order);
    const inRange = (quantity: number) =>
      quantity >= minimum && (maximum === undefined || quantity <= maximum);
    const previous = orderedSoFar.get(item.uuid) ?? 0;
    if (!inRange(input.quantity)) {
      problems.push({
        field: `cart_items.${index}.quantity`,
        message: `${label}: quantity ${input.quantity} of ${name} is outside the allowed range ${rangeText(minimum, maximum)}.`,
        item_uuid: item.uuid,
        minimum,
        maximum: maximum ?? null,
      });
    } else if (!inRange(previous + input.quantity)) {
      // The same item on several lines: the range holds for the order as a whole.
      problems.push({
        field: `cart_items.${index}.quantity`,
        message: `${label}: ${name} is already ordered on another line; ${previous + input.quantity} in all is outside the allowed range ${rangeText(minimum, maximum)}.`,
        item_uuid: item.uuid,
        minimum,
        maximum: maximum ?? null,
      });
    }
    orderedSoFar.set(item.uuid, previous + input.quantity);
    if (isDeliveryItem(item)) deliveryLines.push(index);
    lines.push({
      position: index,
      itemUuid: item.uuid,
      titleName: item.titleName,
      category: readText(item.extraData.category),
      unitPrice,
      quantity: input.quantity,
      lineTotal: lineTotal(unitPrice, input.quantity),
      itemNote: readText(input.item_note),
    });
  });

  if (deliveryLines.length > 1) {
    problems.push({
      field: `cart_items.${deliveryLines[1]}.uuid`,
      message: `An order may have at most one delivery line; lines ${deliveryLines.map((i) => i + 1).join(', ')} are delivery options.`,
    });
  }
  if (problems.length) return { ok: false, problems };

  const total = sum(lines.map((line) => line.lineTotal));
  if (total.gt(MAX_AMOUNT)) {
    return {
      ok: false,
      problems: [
        {
          field: 'amount',
          message: `The order total ${formatMoney(total)} is larger than an order can be (${formatMoney(MAX_AMOUNT)}).`,
        },
      ],
    };
  }
  return { ok: true, lines, total };
}
