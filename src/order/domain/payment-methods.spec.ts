import { isPaymentOffered, offeredProviders } from './payment-methods';

describe('payment methods offered by a menu (rule 1)', () => {
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
});
