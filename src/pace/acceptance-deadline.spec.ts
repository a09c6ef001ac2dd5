import { acceptanceDeadline, deadlineMinutesOf } from './acceptance-deadline';

const PLACED = new Date('2026-11-26T18:00:00Z');

describe('acceptanceDeadline', () => {
  it('is the setting’s minutes after placement for an order for now', () => {
    expect(
      acceptanceDeadline({
        createdAt: PLACED,
        requestedTime: null,
        deadlineMinutes: 10,
        fulfilment: { prep_time_minutes: 30 },
      }),
    ).toEqual(new Date('2026-11-26T18:10:00Z'));
  });

  it('is the requested time minus the prep time for an order for later', () => {
    expect(
      acceptanceDeadline({
        createdAt: PLACED,
        requestedTime: new Date('2026-11-26T21:00:00Z'),
        deadlineMinutes: '10',
        fulfilment: { prep_time_minutes: 30 },
      }),
    ).toEqual(new Date('2026-11-26T20:30:00Z'));
  });

  it('is none without a valid setting', () => {
    for (const value of [undefined, null, 0, 241, 2.5, 'ten', true]) {
      expect(deadlineMinutesOf(value)).toBeNull();
      expect(
        acceptanceDeadline({
          createdAt: PLACED,
          requestedTime: null,
          deadlineMinutes: value,
          fulfilment: null,
        }),
      ).toBeNull();
    }
  });
});
