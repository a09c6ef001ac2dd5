import Decimal from 'decimal.js';

/**
 * Exact decimal arithmetic for prices: never binary floats. Precision
 * is far above what numeric(14,2) × a quantity can need, so nothing rounds.
 */
export const Money = Decimal.clone({
  precision: 64,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -64,
  toExpPos: 64,
});
export type Money = Decimal;

/** The largest value a numeric(14,2) column holds. */
export const MAX_AMOUNT = new Money('999999999999.99');

/** How far the client's amount may be from the computed total. */
export const AMOUNT_TOLERANCE = new Money('0.005');

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

function toMoney(value: unknown): Money | null {
  if (typeof value === 'number') {
    // A JS number converts through its shortest round-trip text (59.97 → "59.97").
    return Number.isFinite(value) && value >= 0 ? new Money(value) : null;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    return DECIMAL_TEXT.test(text) ? new Money(text) : null;
  }
  return null;
}

/**
 * An item's `unit_price_amount` as a money value, or null when it cannot be
 * charged: not a non-negative decimal, more than two decimal places (the
 * stored price is numeric(14,2)), or larger than the column holds.
 */
export function parsePrice(value: unknown): Money | null {
  const money = toMoney(value);
  if (!money || money.decimalPlaces() > 2 || money.gt(MAX_AMOUNT)) return null;
  return money;
}

/** The client's `amount` (a number or decimal text), or null when it is not a non-negative amount. */
export function parseAmount(value: unknown): Money | null {
  return toMoney(value);
}

export function lineTotal(unitPrice: Money, quantity: number): Money {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`Not a quantity: ${quantity}`);
  }
  return unitPrice.times(quantity);
}

export function sum(values: readonly Money[]): Money {
  return values.reduce((total, value) => total.plus(value), new Money(0));
}

/** The sent amount is accepted when it is at most 0.005 away from the computed total. */
export function withinTolerance(sent: Money, computed: Money): boolean {
  return sent.minus(computed).abs().lte(AMOUNT_TOLERANCE);
}

/** Text with exactly two decimals, as amounts are answered. */
export function formatMoney(value: Money): string {
  return value.toFixed(2);
}
