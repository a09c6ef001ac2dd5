// R111: shares sum to the amount due exactly.
/**
 * Splitting what a tab still owes into shares, in minor units (cents), so
 * the shares always sum to the amount due exactly.
 *
 * - equal: `parts` shares; the first `due mod parts` get one unit more, so
 *   any two differ by at most one unit.
 * - amounts: the amounts sent, which must sum to the amount due.
 * - items: each share's lines (any quantity of a line) are valued at their
 *   part of the line's total; the amount due (service charge, tax and
 *   discount included) is apportioned in proportion to those values, each
 *   share rounded down to the unit, and what rounding left over goes to the
 *   largest share (the first of equals).
 */

/** A line of the tab that may be split: its total in units and how many of it are unpaid. */
export interface SplitLine {
  key: string;
  totalUnits: number;
  quantity: number;
  unpaidQuantity: number;
}

export interface ItemShare {
  lines: Array<{ key: string; quantity: number }>;
}

export type SplitProblem = { field: string; message: string };

export function splitEqually(dueUnits: number, parts: number): number[] {
  const base = Math.floor(dueUnits / parts);
  const extra = dueUnits - base * parts;
  return Array.from({ length: parts }, (_, index) => base + (index < extra ? 1 : 0));
}

/** The amounts sent, or the problem when they do not sum to the amount due. */
export function splitByAmounts(
  dueUnits: number,
  amounts: readonly number[],
): number[] | SplitProblem {
  const sum = amounts.reduce((total, amount) => total + amount, 0);
  if (sum !== dueUnits) {
    return {
      field: 'amounts',
      message: `the amounts sum to ${formatUnits(sum)}; the tab owes ${formatUnits(dueUnits)}`,
    };
  }
  return [...amounts];
}

/**
 * Apportions `dueUnits` over shares of lines. Every unpaid quantity of
 * every line must be in exactly one share (a line may be spread over shares
 * by quantity); anything else is a problem naming the share's lines.
 */
export function splitByItems(
  dueUnits: number,
  lines: readonly SplitLine[],
  shares: readonly ItemShare[],
): number[] | SplitProblem {
  const byKey = new Map(lines.map((line) => [line.key, line]));
  const taken = new Map<string, number>();
  for (const [index, share] of shares.entries()) {
    if (share.lines.length === 0) {
      return { field: `shares[${index}].lines`, message: 'a share needs at least one line' };
    }
    for (const part of share.lines) {
      const line = byKey.get(part.key);
      if (!line || line.unpaidQuantity === 0) {
        return {
          field: `shares[${index}].lines`,
          message: `no unpaid line ${part.key} on this tab`,
        };
      }
      taken.set(part.key, (taken.get(part.key) ?? 0) + part.quantity);
    }
  }
  for (const line of lines) {
    const count = taken.get(line.key) ?? 0;
    if (count !== line.unpaidQuantity) {
      return {
        field: 'shares',
        message: `line ${line.key} has ${line.unpaidQuantity} unpaid; the shares take ${count}`,
      };
    }
  }
  // Values over a common denominator (the product of the quantities), exact in BigInt.
  const denominator = lines.reduce((product, line) => product * BigInt(line.quantity), 1n);
  const weights = shares.map((share) =>
    share.lines.reduce((sum, part) => {
      const line = byKey.get(part.key)!;
      return (
        sum +
        (BigInt(line.totalUnits) * BigInt(part.quantity) * denominator) / BigInt(line.quantity)
      );
    }, 0n),
  );
  const whole = weights.reduce((sum, weight) => sum + weight, 0n);
  if (whole === 0n) return splitEqually(dueUnits, shares.length);
  const amounts = weights.map((weight) => Number((BigInt(dueUnits) * weight) / whole));
  return withRemainderOnLargest(dueUnits, amounts);
}

/** Adds what the amounts lack of `dueUnits` to the largest of them (the first of equals). */
export function withRemainderOnLargest(dueUnits: number, amounts: number[]): number[] {
  const left = dueUnits - amounts.reduce((sum, amount) => sum + amount, 0);
  if (left === 0 || amounts.length === 0) return amounts;
  let largest = 0;
  for (let index = 1; index < amounts.length; index++) {
    if (amounts[index] > amounts[largest]) largest = index;
  }
  const result = [...amounts];
  result[largest] += left;
  return result;
}

export function toUnits(amount: string | number): number {
  const [whole, fraction = ''] = String(amount).split('.');
  const sign = whole.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number((fraction + '00').slice(0, 2)));
}

export function formatUnits(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
