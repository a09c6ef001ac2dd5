import { OpeningHours } from './opening-hours';
import { requestedTimeProblem, SlotRules, slotsOfDay } from './requested-time';

const ALL_DAY: OpeningHours['weekly'] = {
  mon: [['00:00', '24:00']],
  tue: [['00:00', '24:00']],
  wed: [['00:00', '24:00']],
  thu: [['00:00', '24:00']],
  fri: [['00:00', '24:00']],
  sat: [['00:00', '24:00']],
  sun: [['00:00', '24:00']],
};

function hours(
  timezone: string,
  weekly: OpeningHours['weekly'],
  closures: OpeningHours['closures'] = [],
): OpeningHours {
  return { timezone, weekly, closures };
}

const rules = (overrides: Partial<SlotRules> = {}): SlotRules => ({
  slotMinutes: 15,
  prepTimeMinutes: 0,
  maxDaysAhead: 7,
  ...overrides,
});
const at = (text: string) => new Date(text);
const starts = (slots: Array<{ start: Date }> | undefined) =>
  (slots ?? []).map((slot) => slot.start.toISOString());

describe('requestedTimeProblem', () => {
  const london = hours('Europe/London', { mon: [['08:00', '22:00']], fri: [['18:00', '02:00']] });
  // 2026-06-01 is a Monday (BST, +01:00).
  const now = at('2026-06-01T06:00:00Z');

  it('takes a slot start inside the hours', () => {
    expect(requestedTimeProblem(at('2026-06-01T08:15:00+01:00'), now, london, rules())).toBeNull();
  });

  it('refuses an instant off the slot grid, seconds included', () => {
    expect(requestedTimeProblem(at('2026-06-01T08:20:00+01:00'), now, london, rules())).toMatch(
      /multiple of 15 minutes/,
    );
    expect(
      requestedTimeProblem(at('2026-06-01T08:15:30+01:00'), now, london, rules()),
    ).not.toBeNull();
  });

  it('counts the grid from local midnight in a zone with a half-hour offset', () => {
    const kolkata = hours('Asia/Kolkata', ALL_DAY);
    const from = at('2026-06-01T00:00:00Z');
    // 10:30 in Kolkata is 05:00Z: a boundary of 60-minute slots only in local time.
    expect(
      requestedTimeProblem(
        at('2026-06-01T11:00:00+05:30'),
        from,
        kolkata,
        rules({ slotMinutes: 60 }),
      ),
    ).toBeNull();
    expect(
      requestedTimeProblem(at('2026-06-01T05:00:00Z'), from, kolkata, rules({ slotMinutes: 60 })),
    ).toMatch(/multiple of 60/);
  });

  it('refuses a time sooner than the prep time, and the past', () => {
    const r = rules({ prepTimeMinutes: 30 });
    expect(
      requestedTimeProblem(at('2026-06-01T08:15:00+01:00'), at('2026-06-01T07:00:00Z'), london, r),
    ).toMatch(/at least 30 minutes/);
    expect(
      requestedTimeProblem(at('2026-06-01T08:30:00+01:00'), at('2026-06-01T07:00:00Z'), london, r),
    ).toBeNull();
    expect(
      requestedTimeProblem(
        at('2026-06-01T08:00:00+01:00'),
        at('2026-06-01T08:00:00Z'),
        london,
        rules(),
      ),
    ).toMatch(/past/);
  });

  it('refuses a day beyond the window, counted in local days', () => {
    const open = hours('Europe/London', ALL_DAY);
    const r = rules({ maxDaysAhead: 2 });
    expect(requestedTimeProblem(at('2026-06-03T23:45:00+01:00'), now, open, r)).toBeNull();
    expect(requestedTimeProblem(at('2026-06-04T00:00:00+01:00'), now, open, r)).toMatch(/2 days/);
    expect(
      requestedTimeProblem(at('2026-06-01T23:45:00+01:00'), now, open, rules({ maxDaysAhead: 0 })),
    ).toBeNull();
  });

  it('refuses a time outside the hours, and the closing minute itself', () => {
    expect(requestedTimeProblem(at('2026-06-01T07:45:00+01:00'), now, london, rules())).toMatch(
      /opening hours/,
    );
    expect(requestedTimeProblem(at('2026-06-01T22:00:00+01:00'), now, london, rules())).toMatch(
      /opening hours/,
    );
    expect(requestedTimeProblem(at('2026-06-02T12:00:00+01:00'), now, london, rules())).toMatch(
      /opening hours/,
    );
  });

  it('follows an interval across midnight into the next day', () => {
    // Friday 18:00 to Saturday 02:00.
    expect(requestedTimeProblem(at('2026-06-06T01:45:00+01:00'), now, london, rules())).toBeNull();
    expect(requestedTimeProblem(at('2026-06-06T02:00:00+01:00'), now, london, rules())).toMatch(
      /opening hours/,
    );
  });

  it('refuses a closed day, and the part past midnight of the evening before it', () => {
    const closed = hours('Europe/London', london.weekly, [
      { from: '2026-06-06', to: '2026-06-06' },
    ]);
    expect(requestedTimeProblem(at('2026-06-05T23:00:00+01:00'), now, closed, rules())).toBeNull();
    expect(requestedTimeProblem(at('2026-06-06T00:15:00+01:00'), now, closed, rules())).toMatch(
      /opening hours/,
    );
  });

  it('counts in UTC and is always open without hours', () => {
    expect(
      requestedTimeProblem(
        at('2026-06-01T03:15:00Z'),
        at('2026-06-01T01:00:00Z'),
        undefined,
        rules(),
      ),
    ).toBeNull();
  });
});

describe('slotsOfDay', () => {
  it('lists the open slots of a day, each as long as the slot', () => {
    const h = hours('Europe/London', { mon: [['08:00', '09:00']] });
    const slots = slotsOfDay(
      '2026-06-01',
      at('2026-05-31T12:00:00Z'),
      h,
      rules({ slotMinutes: 20 }),
    );
    expect(starts(slots)).toEqual([
      '2026-06-01T07:00:00.000Z',
      '2026-06-01T07:20:00.000Z',
      '2026-06-01T07:40:00.000Z',
    ]);
    expect(slots![0].end.toISOString()).toBe('2026-06-01T07:20:00.000Z');
  });

  it('leaves out slots sooner than the prep time', () => {
    const h = hours('Europe/London', { mon: [['08:00', '09:00']] });
    const slots = slotsOfDay(
      '2026-06-01',
      at('2026-06-01T07:05:00Z'),
      h,
      rules({ slotMinutes: 15, prepTimeMinutes: 20 }),
    );
    expect(starts(slots)).toEqual(['2026-06-01T07:30:00.000Z', '2026-06-01T07:45:00.000Z']);
  });

  it('has no slots in the hour London skips in spring, 23 hourly slots that day', () => {
    const h = hours('Europe/London', ALL_DAY);
    const slots = slotsOfDay(
      '2026-03-29',
      at('2026-03-28T12:00:00Z'),
      h,
      rules({ slotMinutes: 60 }),
    );
    expect(slots).toHaveLength(23);
    expect(starts(slots).slice(0, 3)).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T02:00:00.000Z',
    ]);
  });

  it('has the repeated hour twice when New York falls back, 25 hourly slots that day', () => {
    const h = hours('America/New_York', ALL_DAY);
    const slots = slotsOfDay(
      '2026-11-01',
      at('2026-10-31T12:00:00Z'),
      h,
      rules({ slotMinutes: 60 }),
    );
    expect(slots).toHaveLength(25);
    // 01:00 EDT (05:00Z) and 01:00 EST (06:00Z) are both slots.
    expect(starts(slots)).toContain('2026-11-01T05:00:00.000Z');
    expect(starts(slots)).toContain('2026-11-01T06:00:00.000Z');
  });

  it('takes a slot in New York the morning clocks go forward only where the clock shows it', () => {
    const h = hours('America/New_York', ALL_DAY);
    const now = at('2026-03-07T12:00:00Z');
    // 2026-03-08: 02:00 EST becomes 03:00 EDT, so 02:30 does not exist.
    expect(
      requestedTimeProblem(at('2026-03-08T03:30:00-04:00'), now, h, rules({ slotMinutes: 30 })),
    ).toBeNull();
    const hourOf = (iso: string) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        hour: 'numeric',
        hourCycle: 'h23',
      }).format(new Date(iso));
    const slots = starts(slotsOfDay('2026-03-08', now, h, rules({ slotMinutes: 30 })));
    expect(slots.map(hourOf)).not.toContain('2');
    // 01:30 EST is followed by 03:00 EDT, half an hour later.
    expect(slots.slice(3, 5)).toEqual(['2026-03-08T06:30:00.000Z', '2026-03-08T07:00:00.000Z']);
    expect(slotsOfDay('2026-03-08', now, h, rules({ slotMinutes: 30 }))).toHaveLength(46);
  });

  it('has none on a closure, none outside the window, and refuses a malformed date', () => {
    const h = hours('Europe/London', ALL_DAY, [{ from: '2026-06-02', to: '2026-06-02' }]);
    const now = at('2026-06-01T12:00:00Z');
    expect(slotsOfDay('2026-06-02', now, h, rules())).toEqual([]);
    expect(slotsOfDay('2026-05-31', now, h, rules())).toEqual([]);
    expect(slotsOfDay('2026-06-09', now, h, rules())).toEqual([]);
    expect(slotsOfDay('2026-06-08', now, h, rules())).toHaveLength(96);
    expect(slotsOfDay('2026-02-30', now, h, rules())).toBeUndefined();
    expect(slotsOfDay('tomorrow', now, h, rules())).toBeUndefined();
  });
});
