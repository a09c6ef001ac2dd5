import { maskDigitRuns, maskPhone, maskPhonesIn, readMobileNumber } from './phone-number';

describe('readMobileNumber', () => {
  it.each([
    ['+2348031234567', 'NG', '+2348031234567'],
    ['08031234567', 'NG', '+2348031234567'],
    ['0803 123 4567', 'ng', '+2348031234567'],
    ['0241234567', 'GH', '+233241234567'],
    ['0712345678', 'KE', '+254712345678'],
    ['+33612345678', 'NG', '+33612345678'],
    ['+2348031234567', null, '+2348031234567'],
  ])('reads %s in %s as %s', (input, country, expected) => {
    expect(readMobileNumber(input, country)).toBe(expected);
  });

  it.each([
    ['+2348000000000', 'NG'], // toll free
    ['+23412345678', 'NG'], // a Lagos landline
    ['08031234567', null], // national, no country to read it in
    ['08031234567', 'XX'],
    ['12', 'NG'],
    ['not a number', 'NG'],
  ])('refuses %s in %s', (input, country) => {
    expect(readMobileNumber(input, country)).toBeNull();
  });
});

describe('masking', () => {
  it('keeps the last four digits only', () => {
    expect(maskPhone('+2348031234567')).toBe('+*********4567');
  });

  it('masks E.164 numbers in free text, and nothing else', () => {
    expect(maskPhonesIn('to +2348031234567 at 2026-11-26T10:00:00+01:00, 1500 NGN')).toBe(
      'to +*********4567 at 2026-11-26T10:00:00+01:00, 1500 NGN',
    );
  });

  it('masks a number a provider quotes without its +', () => {
    expect(maskDigitRuns('Invalid number 2348031234567')).toBe('Invalid number *********4567');
    expect(maskDigitRuns('Twilio error 21211')).toBe('Twilio error 21211');
  });
});
