import { ErrorDetail } from '../../http/api-error';
import {
  instantOfLocal,
  isoInZone,
  normaliseOpeningHours,
  OpeningHours,
  openState,
} from './opening-hours';

function hours(weekly: OpeningHours['weekly'], closures: OpeningHours['closures'] = []) {
  return { timezone: 'Europe/London', weekly, closures };
}

const at = (text: string) => new Date(text);
const iso = (date: Date | null) => (date ? date.toISOString() : null);

describe('openState', () => {
  it('is always open without hours, and closed with no known reopening when orders are off', () => {
    expect(openState(undefined, true, at('2026-06-01T12:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: null,
    });
    const weekly = hours({ mon: [['00:00', '24:00']] });
    expect(openState(weekly, false, at('2026-06-01T12:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: null,
    });
    expect(openState(undefined, false, at('2026-06-01T12:00:00Z')).open).toBe(false);
  });

  it('opens at the start of an interval and closes at its end (summer time, +01:00)', () => {
    // 2026-06-01 is a Monday; London is on BST.
    const h = hours({ mon: [['08:00', '22:00']] });
    expect(openState(h, true, at('2026-06-01T06:59:59Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-06-01T07:00:00Z'),
    });
    expect(openState(h, true, at('2026-06-01T07:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-06-01T21:00:00Z'),
    });
    const closing = openState(h, true, at('2026-06-01T21:00:00Z'));
    expect(closing.open).toBe(false);
    // Next Monday.
    expect(iso(closing.nextChangeAt)).toBe('2026-06-08T07:00:00.000Z');
  });

  it('runs an interval past midnight into the next day', () => {
    // Friday 18:00 to Saturday 02:00; 2026-01-09 is a Friday (GMT).
    const h = hours({ fri: [['18:00', '02:00']] });
    expect(openState(h, true, at('2026-01-09T23:59:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-01-10T02:00:00Z'),
    });
    expect(openState(h, true, at('2026-01-10T01:30:00Z')).open).toBe(true);
    expect(openState(h, true, at('2026-01-10T02:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-01-16T18:00:00Z'),
    });
  });

  it('joins intervals that meet at midnight and across the week end', () => {
    const h = hours({ sat: [['00:00', '24:00']], sun: [['00:00', '03:00']], mon: [] });
    // Saturday 2026-01-10 noon: open until Sunday 03:00.
    expect(openState(h, true, at('2026-01-10T12:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-01-11T03:00:00Z'),
    });
    // Sunday night to the next Saturday.
    expect(openState(h, true, at('2026-01-11T20:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-01-17T00:00:00Z'),
    });
    // Open all week: no change ever.
    const always = hours(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['00:00', '24:00']]]),
      ),
    );
    expect(openState(always, true, at('2026-01-10T12:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: null,
    });
  });

  it('is closed on closure days, including the part of the previous night past midnight', () => {
    const daily = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [['18:00', '02:00']]]),
    ) as OpeningHours['weekly'];
    const h = hours(daily, [{ from: '2026-12-24', to: '2026-12-26', note: 'Christmas' }]);
    // 23 Dec evening: open until midnight only, as the 24th is closed.
    expect(openState(h, true, at('2026-12-23T20:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-12-24T00:00:00Z'),
    });
    expect(openState(h, true, at('2026-12-25T19:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-12-27T18:00:00Z'),
    });
    expect(openState(hours({}), true, at('2026-12-25T19:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: null,
    });
  });

  it('follows the clocks going forward in spring (Europe/London, 29 March 2026)', () => {
    const h = hours({ sat: [['20:00', '03:00']], sun: [['09:00', '17:00']] });
    // Saturday 28 March 21:00 GMT: open until Sunday 03:00 BST = 02:00Z.
    expect(openState(h, true, at('2026-03-28T21:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-03-29T02:00:00Z'),
    });
    // Sunday 09:00 BST = 08:00Z.
    expect(openState(h, true, at('2026-03-29T02:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-03-29T08:00:00Z'),
    });
    expect(isoInZone(at('2026-03-29T08:00:00Z'), 'Europe/London')).toBe(
      '2026-03-29T09:00:00+01:00',
    );
    // 01:30 does not exist that night: it is read as 02:30 BST.
    const skipped = instantOfLocal('Europe/London', Date.UTC(2026, 2, 29) / 86_400_000, 90);
    expect(skipped.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('follows the clocks going back in autumn (Europe/London, 25 October 2026)', () => {
    const h = hours({ sat: [['22:00', '02:00']], sun: [['09:00', '17:00']] });
    // Saturday 24 Oct 23:00 BST (22:00Z): open until Sunday 02:00 GMT = 02:00Z (three hours later).
    expect(openState(h, true, at('2026-10-24T22:00:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-10-25T02:00:00Z'),
    });
    expect(openState(h, true, at('2026-10-25T02:00:00Z'))).toEqual({
      open: false,
      nextChangeAt: at('2026-10-25T09:00:00Z'),
    });
    expect(isoInZone(at('2026-10-25T09:00:00Z'), 'Europe/London')).toBe(
      '2026-10-25T09:00:00+00:00',
    );
    // 01:30 happens twice: the first one (BST) is taken.
    const repeated = instantOfLocal('Europe/London', Date.UTC(2026, 9, 25) / 86_400_000, 90);
    expect(repeated.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('uses the zone of the hours, not the machine', () => {
    const lagos: OpeningHours = {
      timezone: 'Africa/Lagos',
      weekly: { mon: [['08:00', '22:00']] },
      closures: [],
    };
    // 07:30Z is 08:30 in Lagos (+01:00, no daylight saving).
    expect(openState(lagos, true, at('2026-06-01T07:30:00Z'))).toEqual({
      open: true,
      nextChangeAt: at('2026-06-01T21:00:00Z'),
    });
  });
});

describe('normaliseOpeningHours', () => {
  const check = (value: unknown) => {
    const faults: ErrorDetail[] = [];
    const result = normaliseOpeningHours(value, 'extra_data.opening_hours', faults);
    return { result, fields: faults.map((fault) => fault.field) };
  };

  it('accepts the documented shape', () => {
    const { result, fields } = check({
      timezone: 'Africa/Lagos',
      weekly: {
        mon: [['08:00', '22:00']],
        tue: [
          ['08:00', '14:00'],
          ['17:00', '23:30'],
        ],
        fri: [['18:00', '02:00']],
        sat: [['00:00', '24:00']],
        sun: [],
      },
      closures: [{ from: '2026-12-24', to: '2026-12-26', note: 'Christmas' }],
    });
    expect(fields).toEqual([]);
    expect(result?.weekly.fri).toEqual([['18:00', '02:00']]);
  });

  it.each([
    [{ timezone: 'Mars/Olympus', weekly: {} }, 'extra_data.opening_hours.timezone'],
    [{ timezone: '+01:00', weekly: {} }, 'extra_data.opening_hours.timezone'],
    [
      { timezone: 'UTC', weekly: { mon: [['8:00', '22:00']] } },
      'extra_data.opening_hours.weekly.mon[0][0]',
    ],
    [
      { timezone: 'UTC', weekly: { mon: [['08:00', '24:01']] } },
      'extra_data.opening_hours.weekly.mon[0][1]',
    ],
    [
      { timezone: 'UTC', weekly: { mon: [['24:00', '02:00']] } },
      'extra_data.opening_hours.weekly.mon[0][0]',
    ],
    [
      { timezone: 'UTC', weekly: { mon: [['08:00', '08:00']] } },
      'extra_data.opening_hours.weekly.mon[0][1]',
    ],
    [{ timezone: 'UTC', weekly: { mon: [['08:00']] } }, 'extra_data.opening_hours.weekly.mon[0]'],
    [{ timezone: 'UTC', weekly: { monday: [] } }, 'extra_data.opening_hours.weekly.monday'],
    [{ timezone: 'UTC', weekly: [] }, 'extra_data.opening_hours.weekly'],
    [
      { timezone: 'UTC', weekly: {}, closures: [{ from: '2026-12-26', to: '2026-12-24' }] },
      'extra_data.opening_hours.closures[0].to',
    ],
    [
      { timezone: 'UTC', weekly: {}, closures: [{ from: '2026-02-30', to: '2026-03-01' }] },
      'extra_data.opening_hours.closures[0].from',
    ],
    ['always', 'extra_data.opening_hours'],
  ])('refuses %j at %s', (value, field) => {
    const { result, fields } = check(value);
    expect(fields).toEqual([field]);
    expect(result).toBeUndefined();
  });
});
