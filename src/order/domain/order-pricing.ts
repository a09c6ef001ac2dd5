import { formatMoney, MAX_AMOUNT, Money, parseAmount } from '../../common/money';
import { FULFILMENT_TYPES, FulfilmentType } from './fulfilment-type';
import type { PricingProblem } from './cart-pricing';

/** The business's tax, as its `pricing.tax` says. */
export interface TaxSetting {
  label: string | null;
  ratePercent: Money;
  inclusive: boolean;
  appliesToDelivery: boolean;
}

export interface ServiceChargeSetting {
  label: string | null;
  ratePercent: Money;
  modes: readonly FulfilmentType[];
}

export interface TipsSetting {
  enabled: boolean;
  presetsPercent: readonly number[];
}

export interface PricingSettings {
  tax: TaxSetting | null;
  serviceCharge: ServiceChargeSetting | null;
  tips: TipsSetting | null;
}

/** A discount code that applies to the order (its conditions already checked). */
export interface AppliedDiscount {
  uuid: string;
  code: string;
  kind: 'percent' | 'fixed';
  value: string;
}

export interface PricingInput {
  /** The cart's lines: their totals, and which one is the delivery line. */
  lines: ReadonlyArray<{ lineTotal: Money; isDelivery: boolean }>;
  settings: PricingSettings;
  fulfilmentType: FulfilmentType;
  discount: AppliedDiscount | null;
  /** The body's `tip_amount`, as sent (already checked to be a non-negative amount). */
  tipAmount: string | number | undefined | null;
}

/** An order's price in lines; every amount has two decimals. */
export interface OrderPricing {
  itemsSubtotal: Money;
  deliveryFee: Money;
  discount: Money;
  discountCode: string | null;
  discountUuid: string | null;
  serviceCharge: Money;
  tax: Money;
  taxInclusive: boolean;
  tip: Money;
  total: Money;
  /** The settings used, kept with the order; null when none applied. */
  rates: Record<string, unknown> | null;
}

export type OrderPricingResult =
  { ok: true; pricing: OrderPricing } | { ok: false; problems: PricingProblem[] };

const ZERO = new Money(0);
const HUNDRED = new Money(100);

/** To the minor unit (2 places), half away from zero. */
export function roundMinor(value: Money): Money {
  return value.toDecimalPlaces(2, Money.ROUND_HALF_UP);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rate(value: unknown): Money | null {
  const parsed = parseAmount(value);
  return parsed && parsed.lte(HUNDRED) ? parsed : null;
}

function labelOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * The business's `extra_data.pricing` as pricing reads it. It was checked
 * when written; a part that still does not read counts as absent.
 */
export function readPricingSettings(value: unknown): PricingSettings {
  const settings: PricingSettings = { tax: null, serviceCharge: null, tips: null };
  if (!isObject(value)) return settings;
  const { tax, service_charge: charge, tips } = value;
  if (isObject(tax)) {
    const ratePercent = rate(tax.rate_percent);
    if (ratePercent) {
      settings.tax = {
        label: labelOf(tax.label),
        ratePercent,
        inclusive: tax.inclusive === true,
        appliesToDelivery: tax.applies_to_delivery === true,
      };
    }
  }
  if (isObject(charge)) {
    const ratePercent = rate(charge.rate_percent);
    if (ratePercent) {
      const modes = Array.isArray(charge.modes)
        ? FULFILMENT_TYPES.filter((mode) => (charge.modes as unknown[]).includes(mode))
        : [...FULFILMENT_TYPES];
      settings.serviceCharge = { label: labelOf(charge.label), ratePercent, modes };
    }
  }
  if (isObject(tips)) {
    settings.tips = {
      enabled: tips.enabled === true,
      presetsPercent: Array.isArray(tips.presets_percent)
        ? tips.presets_percent.filter((p): p is number => typeof p === 'number')
        : [],
    };
  }
  return settings;
}

/** The settings kept with the order, so that a later change never reprices it. */
function ratesUsed(input: PricingInput): Record<string, unknown> | null {
  const { tax, serviceCharge } = input.settings;
  const rates: Record<string, unknown> = {};
  if (tax) {
    rates.tax = {
      label: tax.label,
      rate_percent: tax.ratePercent.toString(),
      inclusive: tax.inclusive,
      applies_to_delivery: tax.appliesToDelivery,
    };
  }
  if (serviceCharge) {
    rates.service_charge = {
      label: serviceCharge.label,
      rate_percent: serviceCharge.ratePercent.toString(),
      modes: [...serviceCharge.modes],
    };
  }
  if (input.discount) {
    rates.discount = {
      code: input.discount.code,
      kind: input.discount.kind,
      value: input.discount.value,
    };
  }
  return Object.keys(rates).length ? rates : null;
}

/**
 * The order's price, in exact decimals, each named amount rounded half away
 * from zero to 2 places and nothing rounded in between:
 * 1. items_subtotal: the lines other than the delivery line;
 * 2. delivery_fee: the delivery line's total, or 0;
 * 3. discount: a percent code's share of items_subtotal, or a fixed code's
 *    value, never more than items_subtotal;
 * 4. service_charge: its rate × (items_subtotal − discount) when the order's
 *    fulfilment type is one of its modes, else 0;
 * 5. tax on items_subtotal − discount + service_charge (+ delivery_fee when
 *    the tax applies to delivery): exclusive, rate × base, added to the
 *    total; inclusive, base − base ÷ (1 + rate), already in the prices;
 * 6. tip: the guest's tip_amount, at most items_subtotal, and only when the
 *    business takes tips;
 * 7. total = items_subtotal + delivery_fee − discount + service_charge
 *    + exclusive tax + tip.
 */
export function priceOrder(input: PricingInput): OrderPricingResult {
  const { settings } = input;
  let itemsSubtotal = ZERO;
  let deliveryFee = ZERO;
  for (const line of input.lines) {
    if (line.isDelivery) deliveryFee = deliveryFee.plus(line.lineTotal);
    else itemsSubtotal = itemsSubtotal.plus(line.lineTotal);
  }
  itemsSubtotal = roundMinor(itemsSubtotal);
  deliveryFee = roundMinor(deliveryFee);

  let discount = ZERO;
  if (input.discount) {
    const value = new Money(input.discount.value);
    discount =
      input.discount.kind === 'percent'
        ? roundMinor(itemsSubtotal.times(value).div(HUNDRED))
        : roundMinor(value);
    discount = Money.min(discount, itemsSubtotal);
  }
  const afterDiscount = itemsSubtotal.minus(discount);

  const charge = settings.serviceCharge;
  const serviceCharge =
    charge && charge.modes.includes(input.fulfilmentType)
      ? roundMinor(afterDiscount.times(charge.ratePercent).div(HUNDRED))
      : ZERO;

  let tax = ZERO;
  const taxSetting = settings.tax;
  if (taxSetting) {
    let base = afterDiscount.plus(serviceCharge);
    if (taxSetting.appliesToDelivery) base = base.plus(deliveryFee);
    const fraction = taxSetting.ratePercent.div(HUNDRED);
    tax = taxSetting.inclusive
      ? roundMinor(base.minus(base.div(fraction.plus(1))))
      : roundMinor(base.times(fraction));
  }
  const taxInclusive = taxSetting?.inclusive ?? false;

  const problems: PricingProblem[] = [];
  const sentTip = input.tipAmount;
  const tip = sentTip === undefined || sentTip === null ? ZERO : parseAmount(sentTip);
  if (!tip || tip.decimalPlaces() > 2) {
    problems.push({
      field: 'tip_amount',
      message: 'tip_amount must be a non-negative amount with at most 2 decimals.',
    });
  } else if (!tip.isZero() && !settings.tips?.enabled) {
    problems.push({ field: 'tip_amount', message: 'This business does not take tips.' });
  } else if (tip.gt(itemsSubtotal)) {
    problems.push({
      field: 'tip_amount',
      message: `The tip may be at most the items' subtotal, ${formatMoney(itemsSubtotal)}.`,
      maximum: formatMoney(itemsSubtotal),
    });
  }
  if (problems.length) return { ok: false, problems };

  const total = itemsSubtotal
    .plus(deliveryFee)
    .minus(discount)
    .plus(serviceCharge)
    .plus(taxInclusive ? ZERO : tax)
    .plus(tip!);
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
  return {
    ok: true,
    pricing: {
      itemsSubtotal,
      deliveryFee,
      discount,
      discountCode: input.discount?.code ?? null,
      discountUuid: input.discount?.uuid ?? null,
      serviceCharge,
      tax,
      taxInclusive,
      tip: tip!,
      total,
      rates: ratesUsed(input),
    },
  };
}

/** The order answer's `pricing` block: amounts as text with two decimals. */
export interface PricingBlock {
  items_subtotal: string;
  delivery_fee: string;
  discount: string;
  discount_code: string | null;
  service_charge: string;
  tax: string;
  tax_inclusive: boolean;
  tip: string;
  total: string;
}

export function toPricingBlock(pricing: OrderPricing): PricingBlock {
  return {
    items_subtotal: formatMoney(pricing.itemsSubtotal),
    delivery_fee: formatMoney(pricing.deliveryFee),
    discount: formatMoney(pricing.discount),
    discount_code: pricing.discountCode,
    service_charge: formatMoney(pricing.serviceCharge),
    tax: formatMoney(pricing.tax),
    tax_inclusive: pricing.taxInclusive,
    tip: formatMoney(pricing.tip),
    total: formatMoney(pricing.total),
  };
}
