import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  ChargeOutcome,
  ChargeRequest,
  CheckoutOutcome,
  CheckoutRequest,
  PaymentProvider,
  ProviderEvent,
  RefundLookup,
  RefundLookupOutcome,
  RefundOutcome,
  RefundRequest,
  VerifyOutcome,
} from './payment-provider';
import { ProviderHttp } from './provider-http';
import { chargeBody, chargeOf, chargeStateOf, minorUnits, text } from './paystack-charge';

/** The currencies Paystack takes. */
export const PAYSTACK_CURRENCIES = [
  'NGN',
  'GHS',
  'ZAR',
  'KES',
  'USD',
  'XOF',
  'EGP',
  'RWF',
] as const;

export interface PaystackSettings {
  secretKey: string;
  baseUrl: string;
  timeoutMs: number;
}

/** Paystack's answer envelope: `{ status, message, data }`. */
interface PaystackAnswer {
  status?: unknown;
  message?: unknown;
  data?: Record<string, unknown>;
}

/** `data` is an object, or an array for the list endpoints. */
type Call = { ok: true; data: Record<string, unknown> } | { ok: false; error: string };

/**
 * Payments through Paystack: Transaction Initialize opens a card checkout,
 * Transaction Verify reads it, the Charge API takes USSD, mobile money and
 * bank transfers from the order page, Refund gives money back, and webhooks
 * are signed with an HMAC-SHA512 of the raw body under the secret key.
 */
export class PaystackProvider implements PaymentProvider {
  readonly name = 'paystack';
  readonly collect = 'online' as const;

  private readonly http: ProviderHttp;

  constructor(private readonly settings: PaystackSettings) {
    this.http = new ProviderHttp({ baseUrl: settings.baseUrl, timeoutMs: settings.timeoutMs });
  }

  supportsCurrency(code: string | null): boolean {
    return code !== null && (PAYSTACK_CURRENCIES as readonly string[]).includes(code);
  }

  instructions(): Record<string, unknown> | null {
    return null;
  }

  async openCheckout(request: CheckoutRequest): Promise<CheckoutOutcome> {
    const body: Record<string, unknown> = {
      email: request.email,
      amount: request.amountMinor,
      currency: request.currency,
      reference: request.reference,
      metadata: request.metadata,
    };
    if (request.callbackUrl) body.callback_url = request.callbackUrl;
    if (request.subaccount) body.subaccount = request.subaccount;
    if (request.channels) body.channels = request.channels;
    const answer = await this.call('POST', '/transaction/initialize', body);
    if (!answer.ok) return answer;
    const authorizationUrl = text(answer.data.authorization_url);
    if (!authorizationUrl)
      return { ok: false, error: 'Paystack answered without a checkout address.' };
    return { ok: true, authorizationUrl, accessCode: text(answer.data.access_code) };
  }

  async verify(reference: string): Promise<VerifyOutcome> {
    const answer = await this.call(
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
      undefined,
    );
    if (!answer.ok) return answer;
    const charge = chargeOf(answer.data);
    return charge
      ? { ok: true, charge }
      : { ok: false, error: 'Paystack answered the verification without a charge.' };
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    return this.chargeAnswer(await this.call('POST', '/charge', chargeBody(request)));
  }

  async submitOtp(reference: string, otp: string): Promise<ChargeOutcome> {
    return this.chargeAnswer(await this.call('POST', '/charge/submit_otp', { otp, reference }));
  }

  async checkCharge(reference: string): Promise<ChargeOutcome> {
    return this.chargeAnswer(
      await this.call('GET', `/charge/${encodeURIComponent(reference)}`, undefined),
    );
  }

  private chargeAnswer(answer: Call): ChargeOutcome {
    if (!answer.ok) return answer;
    const state = chargeStateOf(answer.data);
    return state
      ? { ok: true, state }
      : { ok: false, error: 'Paystack answered the charge without its state.' };
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const body: Record<string, unknown> = {
      transaction: request.reference,
      amount: request.amountMinor,
      currency: request.currency,
    };
    if (request.reason) body.merchant_note = request.reason;
    const answer = await this.call('POST', '/refund', body);
    if (!answer.ok) return answer;
    return { ok: true, refundId: text(answer.data.id) };
  }

  /**
   * List Refunds of the charge: the one of this amount whose id the service
   * does not know yet is the refund it asked for.
   */
  async findRefund(lookup: RefundLookup): Promise<RefundLookupOutcome> {
    const transaction = encodeURIComponent(lookup.transactionId ?? lookup.reference);
    const answer = await this.call(
      'GET',
      `/refund?transaction=${transaction}&perPage=100`,
      undefined,
    );
    if (!answer.ok) return answer;
    const list: unknown = answer.data;
    if (!Array.isArray(list)) return { ok: false, error: 'Paystack answered without a list.' };
    for (const entry of list as Array<Record<string, unknown>>) {
      const id = text(entry?.id);
      if (
        id &&
        !lookup.knownRefundIds.includes(id) &&
        minorUnits(entry.amount) === lookup.amountMinor &&
        text(entry.status) !== 'failed'
      ) {
        return { ok: true, refundId: id };
      }
    }
    return { ok: true, refundId: null };
  }

  readEvent(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent | null {
    if (!this.signedBySecret(rawBody, headers['x-paystack-signature'])) return null;
    let event: { event?: unknown; data?: unknown };
    try {
      event = JSON.parse(rawBody.toString('utf8')) as typeof event;
    } catch {
      return { kind: 'other', type: 'unreadable' };
    }
    const type = text(event?.event) ?? 'unknown';
    const data =
      event.data && typeof event.data === 'object' ? (event.data as Record<string, unknown>) : {};
    if (type === 'charge.success') {
      const charge = chargeOf(data);
      if (!charge) return { kind: 'other', type };
      return {
        kind: 'charge',
        key: `charge:${charge.transactionId ?? charge.reference}`,
        charge: { ...charge, outcome: 'success' },
      };
    }
    if (type === 'refund.processed') {
      const reference = text(data.transaction_reference) ?? text(data.reference);
      const amountMinor = minorUnits(data.amount);
      const currency = text(data.currency);
      if (!reference || amountMinor === null || !currency) return { kind: 'other', type };
      const refundId = text(data.id) ?? text(data.refund_reference);
      return {
        kind: 'refund',
        key: `refund:${refundId ?? `${reference}:${amountMinor}`}`,
        reference,
        refundId,
        amountMinor,
        currency: currency.toUpperCase(),
      };
    }
    return { kind: 'other', type };
  }

  /** Hex HMAC-SHA512 of the raw body under the secret key, compared in constant time. */
  private signedBySecret(rawBody: Buffer, signature: string | string[] | undefined): boolean {
    if (typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
    const expected = createHmac('sha512', this.settings.secretKey).update(rawBody).digest();
    return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
  }

  /** Closes the kept connections to Paystack (at shutdown). */
  close(): void {
    this.http.close();
  }

  /**
   * One call with the secret key and the timeout. Failures come back as a
   * readable sentence (never thrown): the caller records it on the order.
   */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    body: Record<string, unknown> | undefined,
  ): Promise<Call> {
    const response = await this.http.call({
      method,
      path,
      headers: {
        authorization: `Bearer ${this.settings.secretKey}`,
        accept: 'application/json',
      },
      body,
    });
    if (response.kind === 'timed out') {
      return {
        ok: false,
        error: `Paystack did not answer within ${Math.round(this.settings.timeoutMs / 1000)} s.`,
      };
    }
    if (response.kind === 'unreachable')
      return { ok: false, error: 'Paystack could not be reached.' };
    const answer = (
      response.body && typeof response.body === 'object' ? response.body : null
    ) as PaystackAnswer | null;
    const message = text(answer?.message);
    if (
      response.status < 200 ||
      response.status > 299 ||
      answer?.status !== true ||
      !answer.data ||
      typeof answer.data !== 'object'
    ) {
      return {
        ok: false,
        error: message
          ? `Paystack refused the request: ${message}`
          : `Paystack answered with HTTP ${response.status}.`,
      };
    }
    return { ok: true, data: answer.data };
  }
}
