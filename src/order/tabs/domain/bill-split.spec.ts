import fc from 'fast-check';
import {
  formatUnits,
  splitByAmounts,
  splitByItems,
  splitEqually,
  SplitLine,
  toUnits,
} from './bill-split';

// R111: shares sum to the amount due exactly.
describe('splitting a bill', () => {
  const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

  it('equal parts differ by at most one unit and sum to the amount due', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 50 }),
        (due, parts) => {
          const shares = splitEqually(due, parts);
          expect(shares).toHaveLength(parts);
          expect(sum(shares)).toBe(due);
          expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('amounts are taken only when they sum to the amount due', () => {
    expect(splitByAmounts(1000, [400, 600])).toEqual([400, 600]);
    expect(splitByAmounts(1000, [400, 599])).toMatchObject({ field: 'amounts' });
  });

  /** A random tab: lines with totals and quantities, and shares that take every unit of them. */
  const tabWithShares = fc
    .array(
      fc.record({
        totalUnits: fc.integer({ min: 0, max: 500_000 }),
        quantity: fc.integer({ min: 1, max: 6 }),
      }),
      { minLength: 1, maxLength: 12 },
    )
    .chain((raw) => {
      const lines: SplitLine[] = raw.map((line, index) => ({
        key: `l${index}`,
        totalUnits: line.totalUnits,
        quantity: line.quantity,
        unpaidQuantity: line.quantity,
      }));
      const units = lines.flatMap((line) => Array.from({ length: line.quantity }, () => line.key));
      return fc.record({
        lines: fc.constant(lines),
        parts: fc.integer({ min: 1, max: Math.min(8, units.length) }),
        owners: fc.array(fc.nat(), { minLength: units.length, maxLength: units.length }),
        due: fc.integer({ min: 0, max: 10_000_000 }),
        units: fc.constant(units),
      });
    });

  it('shares by items sum to the amount due exactly, for any tab, parts and items', () => {
    fc.assert(
      fc.property(tabWithShares, ({ lines, parts, owners, due, units }) => {
        // Each unit goes to a share; every share gets at least one unit.
        const assignment = units.map((_, index) => (index < parts ? index : owners[index] % parts));
        const shares = Array.from({ length: parts }, (_, share) => {
          const counts = new Map<string, number>();
          units.forEach((key, index) => {
            if (assignment[index] === share) counts.set(key, (counts.get(key) ?? 0) + 1);
          });
          return { lines: [...counts].map(([key, quantity]) => ({ key, quantity })) };
        });
        const amounts = splitByItems(due, lines, shares);
        expect(Array.isArray(amounts)).toBe(true);
        const list = amounts as number[];
        expect(list).toHaveLength(parts);
        expect(sum(list)).toBe(due);
        expect(list.every((amount) => amount >= 0 && Number.isInteger(amount))).toBe(true);
      }),
    );
  });

  it('shares by items follow the items: a 30.00 and a 10.00 line of a 44.00 bill', () => {
    const lines: SplitLine[] = [
      { key: 'a', totalUnits: 3000, quantity: 1, unpaidQuantity: 1 },
      { key: 'b', totalUnits: 1000, quantity: 2, unpaidQuantity: 2 },
    ];
    const amounts = splitByItems(4400, lines, [
      {
        lines: [
          { key: 'a', quantity: 1 },
          { key: 'b', quantity: 1 },
        ],
      },
      { lines: [{ key: 'b', quantity: 1 }] },
    ]);
    // 35/40 and 5/40 of 44.00: 38.50 and 5.50.
    expect(amounts).toEqual([3850, 550]);
  });

  it('refuses shares that miss a unit, take one twice or name an unknown line', () => {
    const lines: SplitLine[] = [{ key: 'a', totalUnits: 1000, quantity: 2, unpaidQuantity: 2 }];
    expect(splitByItems(1000, lines, [{ lines: [{ key: 'a', quantity: 1 }] }])).toMatchObject({
      field: 'shares',
    });
    expect(
      splitByItems(1000, lines, [
        { lines: [{ key: 'a', quantity: 2 }] },
        { lines: [{ key: 'a', quantity: 1 }] },
      ]),
    ).toMatchObject({ field: 'shares' });
    expect(splitByItems(1000, lines, [{ lines: [{ key: 'x', quantity: 2 }] }])).toMatchObject({
      field: 'shares[0].lines',
    });
  });

  it('reads and writes amounts in units', () => {
    expect(toUnits('12.5')).toBe(1250);
    expect(toUnits('0.07')).toBe(7);
    expect(formatUnits(1207)).toBe('12.07');
    expect(formatUnits(5)).toBe('0.05');
  });
});
