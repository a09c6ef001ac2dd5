import {
  formatMoney,
  lineTotal,
  MAX_AMOUNT,
  Money,
  parseAmount,
  parsePrice,
  sum,
  withinTolerance,
} from './money';

describe('money (exact decimals, 0.005 tolerance)', () => {
  it('adds three lines of 0.10 to exactly 0.30', () => {
    const price = parsePrice('0.10')!;
    const total = sum([lineTotal(price, 1), lineTotal(price, 1), lineTotal(price, 1)]);
    expect(formatMoney(total)).toBe('0.30');
    expect(total.eq(new Money('0.3'))).toBe(true);
    // The trap this avoids:
    expect(0.1 + 0.1 + 0.1).not.toBe(0.3);
  });

  it('multiplies 19.99 × 3 to exactly 59.97', () => {
    expect(formatMoney(lineTotal(parsePrice('19.99')!, 3))).toBe('59.97');
  });

  it('stays exact at the top of numeric(14,2) times a large quantity', () => {
    expect(lineTotal(MAX_AMOUNT, 1_000_000).toFixed(2)).toBe('999999999999990000.00');
  });

  it('reads prices as decimal text or numbers, with at most two places', () => {
    expect(formatMoney(parsePrice('12')!)).toBe('12.00');
    expect(formatMoney(parsePrice(' 12.5 ')!)).toBe('12.50');
    expect(formatMoney(parsePrice(7.25)!)).toBe('7.25');
    expect(formatMoney(parsePrice('3.100')!)).toBe('3.10');
    for (const bad of ['', 'abc', '-1', '1.005', '1e3', '1,50', null, undefined, NaN, -2, {}, []]) {
      expect(parsePrice(bad)).toBeNull();
    }
    expect(parsePrice('1000000000000.00')).toBeNull();
    expect(parsePrice('999999999999.99')).not.toBeNull();
  });

  it('reads the client amount from a number through its shortest text', () => {
    expect(parseAmount(59.97)!.eq(new Money('59.97'))).toBe(true);
    expect(parseAmount(0.1 + 0.2)!.eq(new Money('0.30000000000000004'))).toBe(true);
    expect(parseAmount('59.970')!.eq(new Money('59.97'))).toBe(true);
    expect(parseAmount(-1)).toBeNull();
    expect(parseAmount(Infinity)).toBeNull();
    expect(parseAmount('ten')).toBeNull();
  });

  it('accepts an amount within 0.005 of the total and refuses one 0.01 off', () => {
    const total = new Money('59.97');
    expect(withinTolerance(new Money('59.97'), total)).toBe(true);
    expect(withinTolerance(new Money('59.975'), total)).toBe(true);
    expect(withinTolerance(new Money('59.965'), total)).toBe(true);
    expect(withinTolerance(new Money('59.9751'), total)).toBe(false);
    expect(withinTolerance(new Money('59.98'), total)).toBe(false);
    expect(withinTolerance(new Money('59.96'), total)).toBe(false);
    // 0.1 + 0.2 sent as a float is within tolerance of 0.30.
    expect(withinTolerance(parseAmount(0.1 + 0.2)!, new Money('0.30'))).toBe(true);
  });

  it('refuses a quantity that is not a whole number', () => {
    expect(() => lineTotal(new Money(1), 1.5)).toThrow(RangeError);
    expect(() => lineTotal(new Money(1), -1)).toThrow(RangeError);
  });
});
