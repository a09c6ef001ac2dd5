import { ApiError } from '../http/api-error';
import { businessTimeZone, parseReportRange } from './report-range';

function refusal(from: string, to: string): ApiError {
  try {
    parseReportRange(from, to);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error(`${from}..${to} was taken`);
}

describe('parseReportRange', () => {
  it('counts both ends', () => {
    expect(parseReportRange('2026-11-24', '2026-11-24').days).toBe(1);
    expect(parseReportRange('2026-10-22', '2026-10-28').days).toBe(7);
  });

  it('takes 366 days and refuses 367 with 422 on to', () => {
    expect(parseReportRange('2024-01-01', '2024-12-31').days).toBe(366);
    const error = refusal('2025-01-01', '2026-01-02');
    expect(error.getStatus()).toBe(422);
    expect(error.code).toBe('UNPROCESSABLE');
    expect(error.details[0].field).toBe('to');
  });

  it.each([
    ['2026-02-30', '2026-03-01', 'from'],
    ['2026-1-01', '2026-03-01', 'from'],
    ['2026-01-01', 'tomorrow', 'to'],
    ['2026-01-01', '2026-13-01', 'to'],
    ['2026-01-01T00:00:00Z', '2026-01-02', 'from'],
  ])('refuses %s..%s with 400 on %s', (from, to, field) => {
    const error = refusal(from, to);
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.map((d) => d.field)).toContain(field);
  });

  it('refuses to before from with 400 on to', () => {
    const error = refusal('2026-11-24', '2026-11-23');
    expect(error.getStatus()).toBe(400);
    expect(error.details).toEqual([{ field: 'to', message: 'must not be before from' }]);
  });
});

describe('businessTimeZone', () => {
  it('reads opening_hours.timezone, else UTC', () => {
    expect(businessTimeZone({ opening_hours: { timezone: 'Africa/Lagos' } })).toBe('Africa/Lagos');
    expect(businessTimeZone({})).toBe('UTC');
    expect(businessTimeZone(null)).toBe('UTC');
    expect(businessTimeZone({ opening_hours: { timezone: 'Mars/Olympus' } })).toBe('UTC');
    expect(businessTimeZone({ opening_hours: { timezone: 7 } })).toBe('UTC');
  });
});
