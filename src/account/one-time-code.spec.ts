import { codeHashKey, generateCode, hashCode, sameHash } from './one-time-code';

describe('one-time codes', () => {
  it('are eight digits without a leading zero', () => {
    for (let i = 0; i < 500; i += 1) expect(generateCode()).toMatch(/^[1-9]\d{7}$/);
  });

  it('are random', () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    expect(codes.size).toBeGreaterThan(195);
  });

  const key = codeHashKey('a-secret-of-enough-length-0123456789');
  const user = '0b6f3c1e-8d2a-4f7b-9c1d-2e3f4a5b6c7d';

  it('hash to 64 hex characters that do not contain the code', () => {
    const hash = hashCode(key, user, 'reset_password', '12345678');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('12345678');
  });

  it('hash differently per code, user, purpose and secret', () => {
    const base = hashCode(key, user, 'reset_password', '12345678');
    expect(hashCode(key, user, 'reset_password', '12345678')).toBe(base);
    expect(hashCode(key, user, 'reset_password', '12345679')).not.toBe(base);
    expect(hashCode(key, user, 'change_password', '12345678')).not.toBe(base);
    expect(
      hashCode(key, '1b6f3c1e-8d2a-4f7b-9c1d-2e3f4a5b6c7d', 'reset_password', '12345678'),
    ).not.toBe(base);
    expect(
      hashCode(
        codeHashKey('another-secret-0123456789abcdef0123'),
        user,
        'reset_password',
        '12345678',
      ),
    ).not.toBe(base);
  });

  it('compare in constant time and refuse empty or odd input', () => {
    const hash = hashCode(key, user, 'verify_email', '87654321');
    expect(sameHash(hash, hash)).toBe(true);
    expect(sameHash(hash, hashCode(key, user, 'verify_email', '87654320'))).toBe(false);
    expect(sameHash(hash, '')).toBe(false);
    expect(sameHash('', '')).toBe(false);
    expect(sameHash(hash, hash.slice(0, 62))).toBe(false);
  });
});
