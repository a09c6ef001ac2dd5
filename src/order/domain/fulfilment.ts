import Decimal from 'decimal.js';
import { formatMoney } from '../../common/money';
import { readMenuView, ZoneQuote } from '../../entity';
import { ErrorDetail } from '../../http/api-error';
import { FULFILMENT_TYPES, FulfilmentType } from './fulfilment-type';

/** How a menu's orders may be handed over and when, read from its stored `extra_data.fulfilment`. */
export interface FulfilmentRules {
  /** Whether the menu has fulfilment settings at all. */
  configured: boolean;
  modes: readonly FulfilmentType[];
  /** Minutes the kitchen needs; 0 when the menu names none. */
  prepTimeMinutes: number;
  /** Each mode's minimum basket; absent for no minimum. */
  minimums: Partial<Record<FulfilmentType, Decimal>>;
  scheduling: {
    enabled: boolean;
    slotMinutes: number;
    maxDaysAhead: number;
    /** Null: no cap per slot. */
    maxOrdersPerSlot: number | null;
  };
}

/** Slot length and window of a menu that enables scheduling but leaves them out. */
export const DEFAULT_SLOT_MINUTES = 15;
export const DEFAULT_MAX_DAYS_AHEAD = 7;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown, fallback: number): number {
  const parsed = typeof value === 'string' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isSafeInteger(parsed) ? parsed : fallback;
}

/**
 * The rules of a menu's `extra_data`, as the entity module's read model gives
 * them (normalised by the rule that checked them on write). Without
 * `fulfilment`, or with one that no longer reads: every mode, no prep time,
 * no minimum, no scheduling.
 */
export function readFulfilment(menuExtra: Record<string, unknown>): FulfilmentRules {
  const fulfilment = readMenuView(menuExtra).fulfilment;
  const raw = fulfilment ?? {};
  const modes = Array.isArray(raw.modes)
    ? FULFILMENT_TYPES.filter((mode) => (raw.modes as unknown[]).includes(mode))
    : [...FULFILMENT_TYPES];
  const minimums: FulfilmentRules['minimums'] = {};
  for (const mode of FULFILMENT_TYPES) {
    const settings = raw[mode];
    if (isPlainObject(settings) && typeof settings.minimum_order_amount === 'string') {
      const minimum = new Decimal(settings.minimum_order_amount);
      if (minimum.gt(0)) minimums[mode] = minimum;
    }
  }
  const scheduling = isPlainObject(raw.scheduling) ? raw.scheduling : {};
  const cap = wholeNumber(scheduling.max_orders_per_slot, 0);
  return {
    configured: fulfilment !== null,
    modes,
    prepTimeMinutes: wholeNumber(raw.prep_time_minutes, 0),
    minimums,
    scheduling: {
      enabled: scheduling.enabled === true,
      slotMinutes: wholeNumber(scheduling.slot_minutes, DEFAULT_SLOT_MINUTES),
      maxDaysAhead: wholeNumber(scheduling.max_days_ahead, DEFAULT_MAX_DAYS_AHEAD),
      maxOrdersPerSlot: cap > 0 ? cap : null,
    },
  };
}

/** What of the order body decides how it is handed over. */
export interface FulfilmentRequest {
  fulfilmentType?: FulfilmentType;
  deliveryAddress: string;
  onpremiseLocation: string;
}

function hasLocation(location: string): boolean {
  const trimmed = location.trim();
  return trimmed !== '' && trimmed !== '_';
}

/**
 * The type a client that does not name one means: `delivery` when a line's
 * item has category `Delivery` or the delivery address is not empty,
 * `dine_in` when the on-premise location is not `_` (nor empty), else `pickup`.
 */
export function inferFulfilment(request: FulfilmentRequest, deliveryLines: number): FulfilmentType {
  if (request.fulfilmentType) return request.fulfilmentType;
  if (deliveryLines > 0 || request.deliveryAddress.trim() !== '') return 'delivery';
  return hasLocation(request.onpremiseLocation) ? 'dine_in' : 'pickup';
}

/**
 * The refusals of an order's hand-over, each naming its field: the type must
 * be one of the menu's modes; a delivery needs an address and, when the menu
 * has any public item of category `Delivery`, exactly one such line (its
 * price is the fee for that area); a dine-in order needs a location other
 * than `_`; the items' subtotal (every line but the delivery line) must reach
 * the mode's minimum, and the refusal names the minimum and the shortfall.
 * With delivery zones, a delivery is checked against its zone instead (see
 * zoneProblems). A menu without fulfilment settings refuses nothing of an
 * order that does not name its type, so the clients of before keep working
 * unchanged.
 */
export function fulfilmentProblems(input: {
  type: FulfilmentType;
  request: FulfilmentRequest;
  rules: FulfilmentRules;
  menuHasDeliveryItems: boolean;
  deliveryLines: number;
  itemsSubtotal: Decimal;
  /** A delivery from a menu with zones: the zone quoted for its location (the zone's minimum applies). */
  zone?: ZoneQuote | 'no location';
}): ErrorDetail[] {
  const { type, request, rules } = input;
  if (!rules.configured && request.fulfilmentType === undefined) return [];
  if (!rules.modes.includes(type)) {
    return [
      {
        field: 'fulfilment_type',
        message: `This menu does not offer ${type}; offered: ${rules.modes.join(', ')}.`,
        offered: [...rules.modes],
      },
    ];
  }
  if (type === 'delivery') {
    if (request.deliveryAddress.trim() === '') {
      return [
        {
          field: 'delivery_data.delivery_address',
          message: 'A delivery needs a delivery address.',
        },
      ];
    }
    if (input.zone) return zoneProblems(input.zone, input.deliveryLines, input.itemsSubtotal);
    if (input.menuHasDeliveryItems && input.deliveryLines !== 1) {
      return [
        {
          field: 'cart_items',
          message: `A delivery from this menu needs exactly one line of category Delivery (the delivery area), not ${input.deliveryLines}.`,
          delivery_lines: input.deliveryLines,
        },
      ];
    }
  }
  if (type === 'dine_in' && !hasLocation(request.onpremiseLocation)) {
    return [
      {
        field: 'onpremise_data.customer_onpremise_location',
        message: 'A dine-in order needs the table or place it is served to.',
      },
    ];
  }
  return minimumProblems(type, rules.minimums[type], input.itemsSubtotal);
}

function minimumProblems(what: string, minimum: Decimal | undefined | null, items: Decimal) {
  if (!minimum || items.gte(minimum)) return [];
  const shortfall = minimum.minus(items);
  return [
    {
      field: 'cart_items',
      message: `The minimum order for ${what} is ${formatMoney(minimum)}; the items come to ${formatMoney(items)}, ${formatMoney(shortfall)} short.`,
      minimum_order_amount: formatMoney(minimum),
      shortfall: formatMoney(shortfall),
    },
  ];
}

// R79: delivery by zone.
/**
 * A delivery from a menu with zones: its `delivery_data` gives a point
 * (`latitude` and `longitude`) or an `area`, a zone holds it (422 outside the
 * delivery area, naming the nearest zone), no line is of category Delivery
 * (the zone prices delivery), and the items reach the zone's minimum (the
 * mode's when the zone names none).
 */
function zoneProblems(
  zone: ZoneQuote | 'no location',
  deliveryLines: number,
  items: Decimal,
): ErrorDetail[] {
  if (zone === 'no location') {
    return [
      {
        field: 'delivery_data',
        message:
          'This menu prices delivery by zone: delivery_data needs latitude and longitude, or area.',
      },
    ];
  }
  if (!zone.ok) return [zone.detail];
  if (deliveryLines > 0) {
    return [
      {
        field: 'cart_items',
        message: `This menu prices delivery by zone (${zone.zone.title}: ${formatMoney(zone.terms.fee)}); remove the line of category Delivery.`,
        delivery_lines: deliveryLines,
      },
    ];
  }
  return minimumProblems(`delivery to ${zone.zone.title}`, zone.terms.minimum, items);
}
