import { availabilityAt, busyMinutesAt, keepStoredAvailability } from './availability';

const NOW = new Date('2026-11-26T18:00:00Z');

describe('availabilityAt', () => {
  it('is open without a switch', () => {
    expect(availabilityAt({}, NOW)).toEqual({
      mode: 'open',
      extra_prep_minutes: null,
      until: null,
    });
  });

  it('reads busy with its minutes until its until, then open', () => {
    const extra = {
      availability: { mode: 'busy', extra_prep_minutes: 20, until: '2026-11-26T19:00:00.000Z' },
    };
    expect(availabilityAt(extra, NOW)).toEqual({
      mode: 'busy',
      extra_prep_minutes: 20,
      until: '2026-11-26T19:00:00.000Z',
    });
    expect(busyMinutesAt(extra, NOW)).toBe(20);
    const after = new Date('2026-11-26T19:00:00Z');
    expect(availabilityAt(extra, after).mode).toBe('open');
    expect(busyMinutesAt(extra, after)).toBe(0);
  });

  it('reads accepting_orders false as paused with no until', () => {
    expect(availabilityAt({ accepting_orders: false }, NOW)).toEqual({
      mode: 'paused',
      extra_prep_minutes: null,
      until: null,
    });
    expect(
      availabilityAt(
        {
          accepting_orders: 'false',
          availability: { mode: 'busy', extra_prep_minutes: 10, until: null },
        },
        NOW,
      ).mode,
    ).toBe('paused');
  });

  it('reads a malformed switch as open', () => {
    expect(availabilityAt({ availability: 'busy' }, NOW).mode).toBe('open');
    expect(availabilityAt({ availability: { mode: 'busy' } }, NOW).mode).toBe('open');
    expect(availabilityAt({ availability: { mode: 'closed' } }, NOW).mode).toBe('open');
  });
});

describe('keepStoredAvailability', () => {
  it('keeps the stored switch whatever the body says, and drops one sent to a new record', () => {
    const stored = { availability: { mode: 'paused' } };
    expect(keepStoredAvailability({ a: 1, availability: { mode: 'open' } }, stored)).toEqual({
      a: 1,
      availability: { mode: 'paused' },
    });
    expect(keepStoredAvailability({ a: 1 }, stored)).toEqual({
      a: 1,
      availability: { mode: 'paused' },
    });
    expect(keepStoredAvailability({ a: 1, availability: { mode: 'busy' } }, undefined)).toEqual({
      a: 1,
    });
    const untouched = { a: 1 };
    expect(keepStoredAvailability(untouched, {})).toBe(untouched);
  });
});
