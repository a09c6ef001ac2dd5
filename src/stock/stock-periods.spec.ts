import { crossings } from './stock-events';
import { COUNT_PERIOD, localDayOf, periodOf, stockTimeZone } from './stock-periods';

describe('stock periods (R97)', () => {
  it('counts daily stock per local day of the business, across its midnight', () => {
    // 23:30 and 00:30 in London on BST (+01:00).
    expect(periodOf('daily', 'Europe/London', new Date('2026-06-01T22:30:00Z'))).toBe('2026-06-01');
    expect(periodOf('daily', 'Europe/London', new Date('2026-06-01T23:30:00Z'))).toBe('2026-06-02');
    // The day clocks go back is 25 hours long in London.
    expect(localDayOf('Europe/London', new Date('2026-10-25T00:30:00Z'))).toBe('2026-10-25');
    expect(localDayOf('Europe/London', new Date('2026-10-25T23:30:00Z'))).toBe('2026-10-25');
    expect(periodOf('count', 'Europe/London', new Date())).toBe(COUNT_PERIOD);
  });

  it('reads the zone from the opening hours, UTC otherwise or when unknown', () => {
    expect(stockTimeZone({ opening_hours: { timezone: 'Africa/Lagos' } })).toBe('Africa/Lagos');
    expect(stockTimeZone({ opening_hours: { timezone: 'Mars/Olympus' } })).toBe('UTC');
    expect(stockTimeZone({})).toBe('UTC');
    expect(stockTimeZone(null)).toBe('UTC');
  });
});

describe('stock crossings (R97)', () => {
  it('names each line crossed on the way down, once', () => {
    expect(crossings(6, 5, 5)).toEqual(['stock.low']);
    expect(crossings(5, 4, 5)).toEqual([]);
    expect(crossings(3, 0, 5)).toEqual(['item.sold_out']);
    expect(crossings(8, 0, 5)).toEqual(['stock.low', 'item.sold_out']);
    expect(crossings(1, 0, 0)).toEqual(['stock.low', 'item.sold_out']);
    expect(crossings(0, 0, 0)).toEqual([]);
    // Going up crosses nothing.
    expect(crossings(0, 4, 5)).toEqual([]);
  });
});
