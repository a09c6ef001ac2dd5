import { ApiKeys } from './api-keys';

describe('ApiKeys', () => {
  const keys = new ApiKeys(['first-key-0123456789', 'second-key-0123456789']);

  it('accepts every configured key', () => {
    expect(keys.matches('first-key-0123456789')).toBe(true);
    expect(keys.matches('second-key-0123456789')).toBe(true);
  });

  it.each([
    undefined,
    '',
    'first-key-012345678',
    'FIRST-KEY-0123456789',
    ['first-key-0123456789'],
    'x'.repeat(600),
  ])('refuses %p', (candidate) => {
    expect(keys.matches(candidate)).toBe(false);
  });
});
