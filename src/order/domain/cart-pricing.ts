import { formatMoney, lineTotal, MAX_AMOUNT, Money, parsePrice, sum } from '../../common/money';
import { ALLERGENS, MenuItemView, readMenuItemView } from '../../entity';

/** R44: the most lines one order may have. */
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
  options?: ReadonlyArray<{ group: string; option: string }> | null;
}

/** A chosen option as the order line keeps it: titles and delta at the moment of the order. */
export interface ChosenOption {
  group: string;
  group_title: string | null;
  option: string;
  option_title: string | null;
  price_delta: string;
}

interface OptionRule {
  key: string;
  title: string | null;
  priceDelta: Money;
  available: boolean;
}

interface OptionGroupRule {
  key: string;
  title: string | null;
  min: number;
  max: number;
  options: Map<string, OptionRule>;
}

/** A line as it is stored: a snapshot of the item's title and price at the moment of the order. */
export interface PricedLine {
  position: number;
  itemUuid: string;
  titleName: string | null;
  category: string | null;
  /** The item's price plus the deltas of the chosen options. */
  unitPrice: Money;
  options: ChosenOption[];
  quantity: number;
  lineTotal: Money;
  itemNote: string | null;
  /** The allergens of the item and its chosen options, in the order of the EU list. */
  allergens: string[];
}

export interface PricingProblem {
  field: string;
  message: string;
  [extra: string]: unknown;
}

export type CartPricing =
  { ok: true; lines: PricedLine[]; total: Money } | { ok: false; problems: PricingProblem[] };

function readText(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

// R34: option groups; R35: sold out items and options (`available: false`) cannot be chosen.
/**
 * The item's option groups as the pricing reads them, from the entity
 * module's read model: an entry that does not read (stored before the rules)
 * is left out, so its options are unknown and cannot be chosen.
 */
function optionGroupsOf(view: MenuItemView): OptionGroupRule[] {
  return view.optionGroups.map((group) => {
    const options = new Map<string, OptionRule>();
    for (const option of group.options) {
      const priceDelta = parsePrice(option.priceDelta);
      if (!priceDelta) continue;
      options.set(option.key, {
        key: option.key,
        title: option.title,
        priceDelta,
        available: option.available,
      });
    }
    return {
      key: group.key,
      title: group.title,
      min: group.minSelected,
      max: group.maxSelected,
      options,
    };
  });
}

/**
 * The options chosen on one line, checked against the item's groups: every
 * option exists in its group, is available and is chosen once, and each
 * group's count lies within its min and max. Problems name the line and the group.
 */
function chooseOptions(
  item: OrderableItem,
  view: MenuItemView,
  input: CartLineInput,
  index: number,
  name: string,
  problems: PricingProblem[],
): ChosenOption[] {
  const label = `Line ${index + 1}`;
  const groups = optionGroupsOf(view);
  const byKey = new Map(groups.map((group) => [group.key, group]));
  const chosen: ChosenOption[] = [];
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  const before = problems.length;
  const problem = (group: string, message: string, extra: Record<string, unknown> = {}) =>
    problems.push({
      field: `cart_items.${index}.options`,
      message: `${label}, group "${group}": ${message}`,
      line: index + 1,
      group,
      item_uuid: item.uuid,
      ...extra,
    });
  for (const choice of input.options ?? []) {
    const group = byKey.get(choice.group);
    const option = group?.options.get(choice.option);
    if (!group || !option) {
      problem(choice.group, `"${choice.option}" is not an option of ${name}.`, {
        option: choice.option,
      });
      continue;
    }
    const id = JSON.stringify([group.key, option.key]);
    if (seen.has(id)) {
      problem(group.key, `"${option.key}" is chosen more than once.`, { option: option.key });
      continue;
    }
    seen.add(id);
    if (!option.available) {
      problem(group.key, `"${option.title ?? option.key}" is sold out.`, {
        option: option.key,
        sold_out: true,
      });
      continue;
    }
    counts.set(group.key, (counts.get(group.key) ?? 0) + 1);
    chosen.push({
      group: group.key,
      group_title: group.title,
      option: option.key,
      option_title: option.title,
      price_delta: formatMoney(option.priceDelta),
    });
  }
  if (problems.length > before) return chosen;
  for (const group of groups) {
    const count = counts.get(group.key) ?? 0;
    if (count < group.min || count > group.max) {
      const range = group.min === group.max ? `${group.min}` : `${group.min}–${group.max}`;
      problem(
        group.key,
        count < group.min
          ? `choose ${range} option${group.max === 1 ? '' : 's'} of "${group.title ?? group.key}" (chosen: ${count}).`
          : `at most ${group.max} option${group.max === 1 ? '' : 's'} of "${group.title ?? group.key}" may be chosen (chosen: ${count}).`,
        { minimum: group.min, maximum: group.max, chosen: count },
      );
    }
  }
  // Same order as the item lists its groups and options, whatever order the client sent.
  const groupOrder = groups.map((group) => group.key);
  return chosen.sort(
    (a, b) =>
      groupOrder.indexOf(a.group) - groupOrder.indexOf(b.group) ||
      [...byKey.get(a.group)!.options.keys()].indexOf(a.option) -
        [...byKey.get(b.group)!.options.keys()].indexOf(b.option),
  );
}

/** Delivery options are items with the category `Delivery`. */
export function isDeliveryItem(item: OrderableItem): boolean {
  return readMenuItemView(item.extraData).category?.trim().toLowerCase() === 'delivery';
}

function rangeText(minimum: number, maximum: number | undefined): string {
  return maximum === undefined ? `at least ${minimum}` : `${minimum}–${maximum}`;
}

// R19: the server computes the total.
/**
 * Every line must name a public item of the menu (the caller passes only
 * those) that is not sold out, with a chargeable price, a quantity inside the
 * item's minimum and maximum, and options its groups allow; at most one
 * delivery line. A line's unit price is the item's price plus the deltas of
 * its options, and the total is computed exactly from those, never taken
 * from the client. Every problem is reported at once, each naming its line.
 */
// R116: each line records the allergens of its item and of its chosen options.
function lineAllergens(view: MenuItemView, chosen: readonly ChosenOption[]): string[] {
  const found = new Set(view.allergens);
  for (const { group, option } of chosen) {
    const options = view.optionGroups.find((candidate) => candidate.key === group)?.options;
    options?.find((candidate) => candidate.key === option)?.allergens.forEach((a) => found.add(a));
  }
  return ALLERGENS.filter((allergen) => found.has(allergen));
}

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
    const view = readMenuItemView(item.extraData);
    if (!view.available) {
      problems.push({
        field: `cart_items.${index}.uuid`,
        message: `${label}: ${name} is sold out.`,
        item_uuid: item.uuid,
        sold_out: true,
      });
      return;
    }
    const basePrice = view.unitPrice === null ? null : parsePrice(view.unitPrice);
    if (!basePrice) {
      problems.push({
        field: `cart_items.${index}.uuid`,
        message: `${label}: ${name} has no valid price and cannot be ordered.`,
        item_uuid: item.uuid,
      });
      return;
    }
    const options = chooseOptions(item, view, input, index, name, problems);
    const unitPrice = options.reduce((price, option) => price.plus(option.price_delta), basePrice);
    const minimum = Math.max(view.minimumQuantity ?? 1, 1);
    const maximum = view.maximumQuantity ?? undefined;
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
    if (view.category?.trim().toLowerCase() === 'delivery') deliveryLines.push(index);
    lines.push({
      position: index,
      itemUuid: item.uuid,
      titleName: item.titleName,
      category: view.category,
      unitPrice,
      options,
      quantity: input.quantity,
      lineTotal: lineTotal(unitPrice, input.quantity),
      itemNote: readText(input.item_note),
      allergens: lineAllergens(view, options),
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
