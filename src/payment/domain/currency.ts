import { Money } from '../../common/money';

const ISO_CODE = /^[A-Za-z]{3}$/;
const CODE_IN_PARENTHESES = /\(\s*([A-Za-z]{3})\s*\)/;

/**
 * The menu's ISO 4217 currency code: `menu_base_wallet_ticker` when it is
 * three letters, else a code in parentheses inside it (owner clients store
 * "Nigerian Naira (NGN)"), else `menu_base_wallet_ticker_symbol` when that is
 * three letters; null when none of them names a code.
 */
export function menuCurrencyCode(ticker: unknown, symbol: unknown): string | null {
  if (typeof ticker === 'string') {
    const text = ticker.trim();
    if (ISO_CODE.test(text)) return text.toUpperCase();
    const inner = CODE_IN_PARENTHESES.exec(text);
    if (inner) return inner[1].toUpperCase();
  }
  if (typeof symbol === 'string' && ISO_CODE.test(symbol.trim())) {
    return symbol.trim().toUpperCase();
  }
  return null;
}

/**
 * An amount in the currency's minor unit as an exact integer: the decimal
 * total times 100, never through a binary float (3 × 1,166.67 → 350001).
 */
export function toMinorUnits(amount: string | Money): number {
  const minor = new Money(amount).times(100);
  if (!minor.isInteger() || minor.isNegative()) {
    throw new RangeError(`Not an amount of whole minor units: ${amount.toString()}`);
  }
  const value = minor.toNumber();
  if (!Number.isSafeInteger(value)) throw new RangeError(`Amount too large: ${amount.toString()}`);
  return value;
}

/** Minor units back to two-decimal text. */
export function fromMinorUnits(minor: number): string {
  return new Money(minor).dividedBy(100).toFixed(2);
}
