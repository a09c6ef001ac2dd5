import type { ChargeReport, ChargeRequest, ChargeState } from './payment-provider';

/*
 * Paystack's Charge API: `POST /charge` opens a charge by USSD
 * (`ussd: { type }`), mobile money (`mobile_money: { phone, provider }`) or
 * bank transfer (`bank_transfer: { account_expires_at }`); its answer's
 * `data.status` says what the guest does next (`pay_offline` with a USSD code
 * or an approval on the phone, `send_otp`, `pending_bank_transfer` with the
 * account to pay into) or where the charge stands (`success`, `failed`,
 * `pending`). `POST /charge/submit_otp` and `GET /charge/{reference}` answer
 * the same way.
 */

export function text(value: unknown): string | null {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** Amounts arrive as integers, sometimes as integer text. */
export function minorUnits(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

export function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

/** A charge as a webhook, Verify or Check Pending Charge reports it. */
export function chargeOf(data: Record<string, unknown>): ChargeReport | null {
  const reference = text(data.reference);
  const amountMinor = minorUnits(data.amount);
  const currency = text(data.currency);
  if (!reference || amountMinor === null || !currency) return null;
  const status = text(data.status);
  return {
    reference,
    transactionId: text(data.id),
    outcome: status === 'success' ? 'success' : status === 'failed' ? 'failed' : 'pending',
    amountMinor,
    currency: currency.toUpperCase(),
    paidAt: date(data.paid_at ?? data.paidAt),
    channel: text(data.channel),
    message: text(data.gateway_response) ?? text(data.message),
  };
}

/** The body of `POST /charge` for a request. */
export function chargeBody(request: ChargeRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    email: request.email,
    amount: request.amountMinor,
    currency: request.currency,
    reference: request.reference,
    metadata: request.metadata,
  };
  if (request.subaccount) body.subaccount = request.subaccount;
  switch (request.channel) {
    case 'ussd':
      body.ussd = { type: request.bank };
      break;
    case 'mobile_money':
      body.mobile_money = { phone: request.phone, provider: request.provider };
      break;
    case 'bank_transfer':
      body.bank_transfer = { account_expires_at: request.accountExpiresAt.toISOString() };
      break;
  }
  return body;
}

/** Where a charge stands, from the `data` of a Charge API answer; null when it cannot be read. */
export function chargeStateOf(data: Record<string, unknown>): ChargeState | null {
  const status = text(data.status);
  const message = text(data.display_text) ?? text(data.message);
  switch (status) {
    case 'success': {
      const charge = chargeOf(data);
      return charge ? { kind: 'paid', charge: { ...charge, outcome: 'success' } } : null;
    }
    case 'failed':
      return {
        kind: 'failed',
        message: text(data.gateway_response) ?? message ?? 'The charge failed.',
      };
    case 'send_otp':
      return { kind: 'otp', message };
    case 'pay_offline': {
      const code = text(data.ussd_code);
      return code ? { kind: 'dial', code, message } : { kind: 'approve_on_phone', message };
    }
    case 'pending_bank_transfer': {
      const accountNumber = text(data.account_number);
      const amountMinor = minorUnits(data.amount);
      if (!accountNumber || amountMinor === null) return null;
      const bank =
        data.bank && typeof data.bank === 'object' ? (data.bank as Record<string, unknown>) : {};
      return {
        kind: 'transfer',
        account: {
          accountNumber,
          accountName: text(data.account_name),
          bankName: text(bank.name) ?? text(data.bank_name),
          amountMinor,
          expiresAt: date(data.account_expires_at),
        },
        message,
      };
    }
    case null:
      return null;
    default:
      // `pending`, `ongoing`, `processing` and steps these channels do not use.
      return { kind: 'pending', message };
  }
}
