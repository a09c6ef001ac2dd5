import { canonicalJson, requestHash } from './request-hash';

describe('request hash (Idempotency-Key body fingerprint)', () => {
  it('does not depend on the order of keys or on undefined fields', () => {
    const a = { menu_uuid: 'm', cart_items: [{ uuid: 'i', quantity: 2 }], note: undefined };
    const b = { cart_items: [{ quantity: 2, uuid: 'i' }], menu_uuid: 'm' };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(requestHash(a)).toBe(requestHash(b));
    expect(requestHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with any value, and with the order of array entries', () => {
    const base = { amount: 10, cart_items: [{ uuid: 'a' }, { uuid: 'b' }] };
    expect(requestHash({ ...base, amount: 10.01 })).not.toBe(requestHash(base));
    expect(requestHash({ ...base, cart_items: [{ uuid: 'b' }, { uuid: 'a' }] })).not.toBe(
      requestHash(base),
    );
    expect(requestHash({ ...base, amount: '10' })).not.toBe(requestHash(base));
  });
});
