import { createHmac } from 'node:crypto';
import { offeredProviderEntry } from '../domain/payment-methods';
import { BankTransferProvider } from './bank-transfer.provider';
import { PaystackProvider } from './paystack.provider';

const SECRET = 'sk_test_secret';
const paystack = new PaystackProvider({
  secretKey: SECRET,
  baseUrl: 'http://127.0.0.1:1',
  timeoutMs: 100,
});

function signed(body: string, signature = createHmac('sha512', SECRET).update(body).digest('hex')) {
  return paystack.readEvent(Buffer.from(body), { 'x-paystack-signature': signature });
}

describe('PaystackProvider.readEvent', () => {
  const body = JSON.stringify({
    event: 'charge.success',
    data: { id: 7, status: 'success', reference: 'ABCD-EFGH-1', amount: 350001, currency: 'ngn' },
  });

  it('reads a charge signed with the secret key', () => {
    expect(signed(body)).toEqual({
      kind: 'charge',
      key: 'charge:7',
      charge: expect.objectContaining({
        reference: 'ABCD-EFGH-1',
        amountMinor: 350001,
        currency: 'NGN',
        outcome: 'success',
      }),
    });
  });

  it('refuses a missing, malformed or foreign signature and a body changed by one byte', () => {
    expect(paystack.readEvent(Buffer.from(body), {})).toBeNull();
    expect(signed(body, 'zz')).toBeNull();
    expect(signed(body, createHmac('sha512', 'other').update(body).digest('hex'))).toBeNull();
    const signature = createHmac('sha512', SECRET).update(body).digest('hex');
    expect(signed(body.replace('350001', '350002'), signature)).toBeNull();
  });

  it('reads other event types as such', () => {
    expect(signed(JSON.stringify({ event: 'transfer.success', data: {} }))).toEqual({
      kind: 'other',
      type: 'transfer.success',
    });
  });
});

describe('bank transfer instructions', () => {
  const entry = {
    title: 'Bank transfer',
    description: 'Pay to',
    account_name: 'Kitchen Ltd',
    account_number: 123456789,
    bank_name: 'Test Bank',
    fee: 10,
  };

  it('finds the entry in an object keyed by provider or in an array naming it', () => {
    expect(offeredProviderEntry({ bank_transfer: entry }, 'bank_transfer')).toBe(entry);
    expect(
      offeredProviderEntry([{ provider: 'bank_transfer', ...entry }], 'bank_transfer'),
    ).toEqual(expect.objectContaining({ bank_name: 'Test Bank' }));
    expect(offeredProviderEntry(['bank_transfer'], 'bank_transfer')).toBeNull();
  });

  it('shows what the owner wrote, and only the instruction fields', () => {
    expect(new BankTransferProvider().instructions(entry)).toEqual({
      title: 'Bank transfer',
      description: 'Pay to',
      account_name: 'Kitchen Ltd',
      account_number: '123456789',
      bank_name: 'Test Bank',
    });
    expect(new BankTransferProvider().instructions({ title: 'Transfer' })).toEqual({
      title: 'Transfer',
      description: null,
    });
  });
});
