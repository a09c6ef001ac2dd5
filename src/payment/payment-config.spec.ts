import { ConfigError, loadConfig } from '../config/config';

const base = { API_KEYS: 'a-key-of-sixteen-chars', JWT_SECRET: 'x'.repeat(40) };

describe('payment settings', () => {
  it('leaves card payments offline without PAYSTACK_SECRET_KEY', () => {
    expect(loadConfig(base).paystack).toBeUndefined();
  });

  it('reads the key, the base URL (default api.paystack.co) and the timeout (default 10 s)', () => {
    expect(loadConfig({ ...base, PAYSTACK_SECRET_KEY: 'sk_test_1' }).paystack).toEqual({
      secretKey: 'sk_test_1',
      baseUrl: 'https://api.paystack.co',
      timeoutMs: 10000,
    });
    const custom = loadConfig({
      ...base,
      PAYSTACK_SECRET_KEY: 'sk_test_1',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9999/',
      PAYSTACK_TIMEOUT_MS: '500',
    }).paystack;
    expect(custom).toMatchObject({ baseUrl: 'http://127.0.0.1:9999', timeoutMs: 500 });
    expect(() =>
      loadConfig({ ...base, PAYSTACK_SECRET_KEY: 'k', PAYSTACK_BASE_URL: 'ftp://x' }),
    ).toThrow(/PAYSTACK_BASE_URL/);
  });

  it('accepts any callback origin outside production when unset, none in production', () => {
    expect(loadConfig(base).paymentCallbackOrigins).toBe('*');
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', FRONT_URL: 'https://menu.example' })
        .paymentCallbackOrigins,
    ).toEqual([]);
    expect(
      loadConfig({ ...base, PAYMENT_CALLBACK_ORIGINS: 'https://shop.example, http://a.test:8080/' })
        .paymentCallbackOrigins,
    ).toEqual(['https://shop.example', 'http://a.test:8080']);
  });

  it('names PAYMENT_CALLBACK_ORIGINS when it holds something that is not an origin', () => {
    expect(() =>
      loadConfig({ ...base, PAYMENT_CALLBACK_ORIGINS: 'https://shop.example/path' }),
    ).toThrow(ConfigError);
  });
});
