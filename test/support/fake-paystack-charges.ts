import { randomBytes } from 'node:crypto';
import type { FakeTransaction } from './fake-paystack';

/*
 * The Charge API of the fake Paystack, as Paystack documents it:
 * `POST /charge` with `ussd: { type }`, `mobile_money: { phone, provider }`
 * or `bank_transfer: { account_expires_at }`; `POST /charge/submit_otp`
 * with `{ otp, reference }`; `GET /charge/{reference}` (Check Pending
 * Charge). Answers are the `{ status, message, data }` envelope with
 * `data.status` one of `pay_offline` (with `ussd_code` for USSD),
 * `send_otp`, `pending_bank_transfer` (with the account to pay into),
 * `success`, `failed` or `pending`.
 */

export const USSD_BANKS = ['737', '919', '822', '966'];
const MOBILE_MONEY: Record<string, string> = { mtn: 'GHS', atl: 'GHS', vod: 'GHS', mpesa: 'KES' };
/** The OTP the fake accepts. */
export const FAKE_OTP = '123456';

/**
 * What the fake answers a new charge with: as Paystack does for its channel
 * (`normal`), or at once paid or failed.
 */
export type ChargeMode = 'normal' | 'success' | 'failed';

export type Answer = { status: number; body: Record<string, unknown> };

const refused = (message: string): Answer => ({ status: 400, body: { status: false, message } });

/** The channel object of a charge body, checked as Paystack checks it. */
function channelOf(body: any): { channel: string; problem: string | null; currency: string } {
  if (body?.ussd) {
    return {
      channel: 'ussd',
      problem: USSD_BANKS.includes(String(body.ussd.type)) ? null : 'Invalid USSD type',
      currency: 'NGN',
    };
  }
  if (body?.mobile_money) {
    const { provider, phone } = body.mobile_money;
    const currency = MOBILE_MONEY[String(provider)];
    const problem = !currency
      ? 'Invalid mobile money provider'
      : typeof phone !== 'string' || !/^\+?\d{9,15}$/.test(phone)
        ? 'Invalid phone number'
        : null;
    return { channel: 'mobile_money', problem, currency: currency ?? '' };
  }
  if (body?.bank_transfer) {
    const expires = Date.parse(body.bank_transfer.account_expires_at);
    return {
      channel: 'bank_transfer',
      problem: Number.isNaN(expires) ? 'Invalid account_expires_at' : null,
      currency: 'NGN',
    };
  }
  return { channel: '', problem: 'Specify a payment channel', currency: '' };
}

/** `data` of a charge answer for the transaction in its current state. */
export function chargeAnswerData(transaction: FakeTransaction, data: Record<string, unknown>) {
  const common = {
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    channel: transaction.channel,
  };
  if (transaction.status === 'success' || transaction.status === 'failed')
    return { ...data, ...common };
  return { ...common, ...transaction.pendingData };
}

/** Creates a charge; the answer's `data.status` says what the guest does next. */
export function createCharge(
  transactions: Map<string, FakeTransaction>,
  nextId: () => number,
  body: any,
  mode: ChargeMode,
): { answer: Answer; transaction?: FakeTransaction } {
  if (!body || typeof body.email !== 'string' || !body.email.includes('@')) {
    return { answer: refused('Invalid Email Address Passed') };
  }
  const amount = typeof body.amount === 'string' ? Number(body.amount) : body.amount;
  if (!Number.isInteger(amount) || amount <= 0) return { answer: refused('Invalid Amount Sent') };
  const { channel, problem, currency } = channelOf(body);
  if (problem) return { answer: refused(problem) };
  if ((body.currency ?? 'NGN') !== currency)
    return { answer: refused(`Currency not supported for ${channel}`) };
  const reference: string = body.reference ?? `T${randomBytes(6).toString('hex')}`;
  if (transactions.has(reference)) return { answer: refused('Duplicate Transaction Reference') };
  const transaction: FakeTransaction = {
    id: nextId(),
    reference,
    email: body.email,
    amount,
    currency,
    status: 'abandoned',
    paid_at: null,
    refunded: 0,
    metadata: body.metadata ?? null,
    subaccount: body.subaccount ?? null,
    callback_url: null,
    channels: null,
    channel,
    pendingData: pendingData(channel, body, amount),
  };
  transactions.set(reference, transaction);
  if (mode === 'success') {
    transaction.status = 'success';
    transaction.paid_at = new Date().toISOString();
  } else if (mode === 'failed') {
    transaction.status = 'failed';
  }
  return {
    answer: { status: 200, body: { status: true, message: 'Charge attempted' } },
    transaction,
  };
}

function pendingData(channel: string, body: any, amount: number): Record<string, unknown> {
  if (channel === 'ussd') {
    const code = `*${body.ussd.type}*000*${randomBytes(2).readUInt16BE(0) % 10000}#`;
    return {
      status: 'pay_offline',
      display_text: `Please dial ${code} on your mobile phone to complete the transaction`,
      ussd_code: code,
    };
  }
  if (channel === 'mobile_money') {
    return body.mobile_money.provider === 'vod'
      ? { status: 'send_otp', display_text: 'Please enter the OTP sent to your phone' }
      : {
          status: 'pay_offline',
          display_text: 'Please complete authorization process on your mobile phone',
        };
  }
  return {
    status: 'pending_bank_transfer',
    display_text: 'Please make a transfer to the account specified',
    account_name: 'PAYSTACK CHECKOUT',
    account_number: String(1_000_000_000 + (randomBytes(4).readUInt32BE(0) % 8_999_999_999)).slice(
      0,
      10,
    ),
    bank: { slug: 'test-bank', name: 'Test Bank', id: 22 },
    account_expires_at: body.bank_transfer.account_expires_at,
    amount,
  };
}

/** The OTP step: the right code moves the charge on to the approval on the phone. */
export function submitOtp(transaction: FakeTransaction | undefined, body: any): Answer {
  if (!transaction) return { status: 400, body: { status: false, message: 'Charge not found' } };
  if (transaction.pendingData?.status !== 'send_otp') {
    return refused('This charge is not awaiting an OTP');
  }
  if (body?.otp !== FAKE_OTP) return refused('Incorrect OTP');
  transaction.pendingData = {
    status: 'pay_offline',
    display_text: 'Please complete authorization process on your mobile phone',
  };
  return { status: 200, body: { status: true, message: 'Charge attempted' } };
}
