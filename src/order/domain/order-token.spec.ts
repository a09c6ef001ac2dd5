import { OrderTokens } from './order-token';

const UUID = '3f2b6c1e-8d7a-4c2b-9e1f-0a1b2c3d4e5f';

describe('OrderTokens', () => {
  const tokens = new OrderTokens('secret-one-0123456789abcdef0123456789');

  it('gives the same order the same token, and it matches only that order', () => {
    const token = tokens.tokenFor(UUID);
    expect(token).toBe(tokens.tokenFor(UUID.toUpperCase()));
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(tokens.matches(UUID, token)).toBe(true);
    expect(tokens.matches('00000000-0000-4000-8000-000000000000', token)).toBe(false);
  });

  it('refuses a token made under another secret, a truncated one and non-strings', () => {
    const other = new OrderTokens('secret-two-0123456789abcdef0123456789');
    const token = tokens.tokenFor(UUID);
    expect(tokens.matches(UUID, other.tokenFor(UUID))).toBe(false);
    expect(tokens.matches(UUID, token.slice(0, -1))).toBe(false);
    expect(tokens.matches(UUID, undefined)).toBe(false);
    expect(tokens.matches(UUID, [token])).toBe(false);
  });
});
