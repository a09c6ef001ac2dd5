import { ErrorDetail } from '../http/api-error';
import { withoutZones } from './domain/delivery-zones';
import { OPTION_RULES } from './domain/option-groups';
import { LABEL_FIELDS } from './domain/menu-labels';
import { ENTITY_TYPE_DEFINITIONS } from './entity-types';
import { FieldRule, isPlainObject } from './extra-data';

/*
 * Typed read models of a stored `extra_data`, read with the same rule objects
 * that validated it on write. Stored data was validated, but a row may
 * predate a rule: a value the rule refuses reads as the default, and reading
 * never throws.
 */

function fieldsOf(suffix: string): Record<string, FieldRule> {
  return ENTITY_TYPE_DEFINITIONS.find((definition) => definition.suffix === suffix)!.extraData
    .fields;
}

const ITEM = fieldsOf('business_menu_item');
const MENU = fieldsOf('business_menu');
const BUSINESS = fieldsOf('business');

/** The value as the rule stores it, or `fallback` when it is absent, null or refused. */
function read<T>(rule: FieldRule, value: unknown, fallback: T): T {
  if (value === undefined || value === null) return fallback;
  const faults: ErrorDetail[] = [];
  const normalised = rule(value, 'extra_data', faults);
  return faults.length || normalised === undefined || normalised === null
    ? fallback
    : (normalised as T);
}

function dataOf(extraData: unknown): Record<string, unknown> {
  return isPlainObject(extraData) ? extraData : {};
}

export interface OptionView {
  key: string;
  title: string | null;
  /** Decimal text, "0" when absent. */
  priceDelta: string;
  available: boolean;
  /** The allergens it contains (R116), [] when none are stated. */
  allergens: string[];
}

export interface OptionGroupView {
  key: string;
  title: string | null;
  minSelected: number;
  maxSelected: number;
  options: OptionView[];
}

export interface MenuItemView {
  /** Decimal text as stored ("12.5" for a price sent as 12.5), or null when unset or unreadable. */
  unitPrice: string | null;
  minimumQuantity: number | null;
  maximumQuantity: number | null;
  /** False marks the item sold out; default true. */
  available: boolean;
  /** The category, or null when unset or blank. */
  category: string | null;
  tag: string | null;
  sortPosition: number | null;
  /**
   * The option groups; a group or option that does not read (stored before
   * its rules) is left out, so it cannot be chosen.
   */
  optionGroups: OptionGroupView[];
  /** The allergens it contains (R116), [] when none are stated. */
  allergens: string[];
}

function blankToNull(value: string | null): string | null {
  return value !== null && value.trim() !== '' ? value : null;
}

function readOption(candidate: unknown): OptionView | undefined {
  if (!isPlainObject(candidate)) return undefined;
  const key = read<string | null>(OPTION_RULES.key, candidate.key, null);
  const faults: ErrorDetail[] = [];
  const delta = OPTION_RULES.priceDelta(candidate.price_delta ?? '0', 'price_delta', faults);
  if (key === null || faults.length) return undefined;
  return {
    key,
    title: blankToNull(read(OPTION_RULES.title, candidate.title, null)),
    priceDelta: delta as string,
    available: read(OPTION_RULES.available, candidate.available, true),
    allergens: read<string[]>(LABEL_FIELDS.allergens, candidate.allergens, []),
  };
}

function readOptionGroups(value: unknown): OptionGroupView[] {
  if (!Array.isArray(value)) return [];
  const groups: OptionGroupView[] = [];
  for (const entry of value as unknown[]) {
    if (!isPlainObject(entry) || !Array.isArray(entry.options)) continue;
    const key = read<string | null>(OPTION_RULES.key, entry.key, null);
    if (key === null) continue;
    const options = (entry.options as unknown[])
      .map(readOption)
      .filter((option): option is OptionView => option !== undefined);
    groups.push({
      key,
      title: blankToNull(read(OPTION_RULES.title, entry.title, null)),
      minSelected: read(OPTION_RULES.count, entry.min_selected, 0),
      maxSelected: read(OPTION_RULES.count, entry.max_selected, options.length),
      options,
    });
  }
  return groups;
}

/** What order placement reads of a menu item's stored `extra_data`. */
export function readMenuItemView(extraData: unknown): MenuItemView {
  const data = dataOf(extraData);
  return {
    unitPrice: read(ITEM.unit_price_amount, data.unit_price_amount, null),
    minimumQuantity: read(ITEM.minimum_quantity_per_order, data.minimum_quantity_per_order, null),
    maximumQuantity: read(ITEM.maximum_quantity_per_order, data.maximum_quantity_per_order, null),
    available: read(ITEM.available, data.available, true),
    category: blankToNull(read(ITEM.category, data.category, null)),
    tag: read(ITEM.tag, data.tag, null),
    sortPosition: read(ITEM.sort_position, data.sort_position, null),
    optionGroups: readOptionGroups(data.option_groups),
    allergens: read<string[]>(ITEM.allergens, data.allergens, []),
  };
}

export interface MenuView {
  /** The currency as stored: an ISO 4217 code, or a name with the code in parentheses. */
  currency: string | null;
  currencySymbol: string | null;
  /** The payment methods besides cash, an array or an object keyed by provider, as stored. */
  paymentProviders: unknown[] | Record<string, unknown> | null;
  /**
   * The fulfilment settings as the rule normalises them, or null when unset
   * or unreadable; without `delivery.zones`, which are read once per menu
   * version by the menu's delivery zones instead of at every read.
   */
  fulfilment: Record<string, unknown> | null;
  contactInfo: Record<string, unknown> | null;
}

/** What order placement reads of a menu's stored `extra_data`. */
export function readMenuView(extraData: unknown): MenuView {
  const data = dataOf(extraData);
  return {
    currency: read(MENU.menu_base_wallet_ticker, data.menu_base_wallet_ticker, null),
    currencySymbol: read(
      MENU.menu_base_wallet_ticker_symbol,
      data.menu_base_wallet_ticker_symbol,
      null,
    ),
    paymentProviders: read(
      MENU.menu_checkout_payments_providers,
      data.menu_checkout_payments_providers,
      null,
    ),
    fulfilment: read(MENU.fulfilment, withoutZones(data).fulfilment, null),
    contactInfo: read(MENU.contact_info, data.contact_info, null),
  };
}

export interface BusinessView {
  /** The owner's switch; false refuses new orders. Default true. */
  acceptingOrders: boolean;
  /** The opening hours as the rule normalises them, or null (always open). */
  openingHours: Record<string, unknown> | null;
  /** The pricing settings as the rule normalises them, or null (items alone). */
  pricing: Record<string, unknown> | null;
  paystackSubaccountCode: string | null;
  contactEmail: string | null;
}

/** What order placement reads of a business's stored `extra_data`. */
export function readBusinessView(extraData: unknown): BusinessView {
  const data = dataOf(extraData);
  return {
    acceptingOrders: read(BUSINESS.accepting_orders, data.accepting_orders, true),
    openingHours: read(BUSINESS.opening_hours, data.opening_hours, null),
    pricing: read(BUSINESS.pricing, data.pricing, null),
    paystackSubaccountCode: blankToNull(
      read(BUSINESS.paystack_subaccount_code, data.paystack_subaccount_code, null),
    ),
    contactEmail: blankToNull(read(BUSINESS.contact_email, data.contact_email, null)),
  };
}
