import { isPaymentOffered, offeredProviderEntry, offeredProviders } from './payment-methods';

describe('payment methods offered by a menu (R42)', () => {
  it('always allows cash, even with nothing configured', () => {
    for (const providers of [undefined, null, [], {}, 'paystack']) {
      expect(isPaymentOffered('cash', providers)).toBe(true);
      expect(isPaymentOffered('paystack', providers)).toBe(false);
    }
  });

  it('reads the object keyed by provider that the owner client stores', () => {
    const providers = {
      paystack: { title: 'Card', description: '', fee: '1.5', fee_max_amount: '2000' },
      bank_transfer: { title: 'Transfer' },
    };
    expect(isPaymentOffered('paystack', providers)).toBe(true);
    expect(isPaymentOffered('bank_transfer', providers)).toBe(true);
  });

  it('reads an array of names or of objects naming their provider', () => {
    expect(isPaymentOffered('bank_transfer', ['Bank_Transfer'])).toBe(true);
    expect(isPaymentOffered('paystack', ['bank_transfer'])).toBe(false);
    expect(isPaymentOffered('paystack', [{ provider: 'paystack', title: 'Card' }])).toBe(true);
    expect(isPaymentOffered('paystack', [{ name: 'paystack' }])).toBe(true);
    expect(isPaymentOffered('paystack', [{ title: 'paystack' }])).toBe(false);
  });

  it('does not offer entries switched off', () => {
    expect(offeredProviders({ paystack: false, bank_transfer: { enabled: false } }).size).toBe(0);
    expect(offeredProviders([{ provider: 'paystack', enabled: false }]).size).toBe(0);
    expect(offeredProviders({ paystack: null, bank_transfer: true })).toEqual(
      new Set(['bank_transfer']),
    );
  });

  it("never takes a switched-off entry's details, and takes the first entry switched on", () => {
    const old = { provider: 'bank_transfer', enabled: false, account_number: '111' };
    const current = { provider: 'bank_transfer', account_number: '222' };
    expect(offeredProviderEntry([old, current], 'bank_transfer')).toBe(current);
    expect(offeredProviderEntry([old], 'bank_transfer')).toBeNull();
    expect(
      offeredProviderEntry({ bank_transfer: { enabled: false, bank_name: 'X' } }, 'bank_transfer'),
    ).toBeNull();
    expect(offeredProviderEntry({ Bank_Transfer: current }, 'bank_transfer')).toBe(current);
    expect(offeredProviderEntry([current, { provider: 'bank_transfer' }], 'bank_transfer')).toBe(
      current,
    );
  });

  it('offers a provider named without details, with no entry', () => {
    expect(isPaymentOffered('bank_transfer', { bank_transfer: true })).toBe(true);
    expect(offeredProviderEntry({ bank_transfer: true }, 'bank_transfer')).toBeNull();
    expect(offeredProviderEntry(['bank_transfer'], 'bank_transfer')).toBeNull();
    expect(offeredProviderEntry({ paystack: {} }, 'bank_transfer')).toBeNull();
  });
});
