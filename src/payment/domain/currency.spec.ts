import { fromMinorUnits, menuCurrencyCode, toMinorUnits } from './currency';

describe('menuCurrencyCode', () => {
  it('takes a three-letter ticker, upper-cased', () => {
    expect(menuCurrencyCode('NGN', '₦')).toBe('NGN');
    expect(menuCurrencyCode(' ghs ', null)).toBe('GHS');
  });

  it('finds a code in parentheses, as owner clients store it', () => {
    expect(menuCurrencyCode('Nigerian Naira (NGN)', '₦')).toBe('NGN');
  });

  it('falls back to a three-letter symbol, else null', () => {
    expect(menuCurrencyCode('Naira', 'NGN')).toBe('NGN');
    expect(menuCurrencyCode('Naira', '₦')).toBeNull();
    expect(menuCurrencyCode(undefined, undefined)).toBeNull();
  });
});

describe('toMinorUnits', () => {
  it('is exact where binary floats are not', () => {
    expect(toMinorUnits('3500.01')).toBe(350001);
    expect(toMinorUnits('0.29')).toBe(29);
    expect(toMinorUnits('1166.67')).toBe(116667);
  });

  it('refuses fractions of a minor unit', () => {
    expect(() => toMinorUnits('1.005')).toThrow(RangeError);
  });

  it('reads back as two-decimal text', () => {
    expect(fromMinorUnits(350001)).toBe('3500.01');
  });
});
