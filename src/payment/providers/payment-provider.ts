import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentCollect } from '../domain/payment-state';

/** What a checkout needs: who pays, how much (minor units), and where the guest comes back. */
export interface CheckoutRequest {
  /** Unique per attempt. */
  reference: string;
  email: string;
  amountMinor: number;
  currency: string;
  callbackUrl: string | null;
  /** Where the money settles, when the business has its own account at the provider. */
  subaccount: string | null;
  /** The checkout's payment channels as the menu names them; null for the provider's defaults. */
  channels: string[] | null;
  metadata: Record<string, unknown>;
}

export type CheckoutOutcome =
  { ok: true; authorizationUrl: string; accessCode: string | null } | { ok: false; error: string };

/** A provider's account of one charge, from a webhook or a verify call. */
export interface ChargeReport {
  reference: string;
  /** The provider's own id of the transaction. */
  transactionId: string | null;
  outcome: 'success' | 'failed' | 'pending';
  amountMinor: number;
  currency: string;
  paidAt: Date | null;
  /** The channel the guest paid through, as the provider names it (`card`, `ussd`, …). */
  channel?: string | null;
  /** The provider's words about a failure. */
  message?: string | null;
}

/**
 * A charge the guest completes without leaving the order page: by USSD, by
 * mobile money, or by a transfer to an account issued for it.
 */
export type ChargeRequest = {
  reference: string;
  email: string;
  amountMinor: number;
  currency: string;
  subaccount: string | null;
  metadata: Record<string, unknown>;
} & (
  | { channel: 'ussd'; bank: string }
  | { channel: 'mobile_money'; provider: string; phone: string }
  | { channel: 'bank_transfer'; accountExpiresAt: Date }
);

/** An account number the guest transfers to. */
export interface TransferAccount {
  accountNumber: string;
  accountName: string | null;
  bankName: string | null;
  amountMinor: number;
  expiresAt: Date | null;
}

/**
 * Where a charge stands after the provider answered: paid or failed, or
 * waiting for the guest (a code to dial, an approval on the phone, an OTP, a
 * transfer), or still pending with nothing for the guest to do.
 */
export type ChargeState =
  | { kind: 'paid'; charge: ChargeReport }
  | { kind: 'failed'; message: string }
  | { kind: 'dial'; code: string; message: string | null }
  | { kind: 'approve_on_phone'; message: string | null }
  | { kind: 'otp'; message: string | null }
  | { kind: 'transfer'; account: TransferAccount; message: string | null }
  | { kind: 'pending'; message: string | null };

export type ChargeOutcome = { ok: true; state: ChargeState } | { ok: false; error: string };

export type VerifyOutcome = { ok: true; charge: ChargeReport } | { ok: false; error: string };

export interface RefundRequest {
  /** The reference of the paid charge. */
  reference: string;
  amountMinor: number;
  currency: string;
  reason: string | null;
}

export type RefundOutcome = { ok: true; refundId: string | null } | { ok: false; error: string };

/** A refund the service asked for but never heard the answer to (it stopped meanwhile). */
export interface RefundLookup {
  /** The reference of the paid charge, and the provider's id of that charge when known. */
  reference: string;
  transactionId: string | null;
  amountMinor: number;
  /** The provider's ids of the order's refunds the service already knows: not this one. */
  knownRefundIds: string[];
}

/** The provider's id of that refund, null when it has no such refund. */
export type RefundLookupOutcome =
  { ok: true; refundId: string | null } | { ok: false; error: string };

/**
 * An event the provider pushed. `key` identifies it among all events of the
 * provider, so a delivery seen before is recognised.
 */
export type ProviderEvent =
  | { kind: 'charge'; key: string; charge: ChargeReport }
  | {
      kind: 'refund';
      key: string;
      /** The reference of the refunded charge. */
      reference: string;
      refundId: string | null;
      amountMinor: number;
      currency: string;
    }
  | { kind: 'other'; type: string };

/**
 * One way of paying an order. Offline providers (cash, bank transfer) only
 * describe themselves; an online provider opens checkouts, verifies charges,
 * refunds and reads the events it pushes. A further provider is one class
 * implementing this and one entry in the registry.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Whether the money is collected online by the provider or offline by the owner. */
  readonly collect: PaymentCollect;
  /** Whether an online payment can be taken in this ISO 4217 currency. */
  supportsCurrency(code: string | null): boolean;
  /** What the guest is told to do, from the menu's entry for this provider; null when nothing. */
  instructions(menuEntry: Record<string, unknown> | null): Record<string, unknown> | null;
  openCheckout(request: CheckoutRequest): Promise<CheckoutOutcome>;
  verify(reference: string): Promise<VerifyOutcome>;
  /** Opens a charge by USSD, mobile money or bank transfer. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
  /** Forwards the OTP the guest received for a charge. */
  submitOtp(reference: string, otp: string): Promise<ChargeOutcome>;
  /** Asks where a pending charge stands. */
  checkCharge(reference: string): Promise<ChargeOutcome>;
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Whether the provider made a refund the service cannot tell the outcome of. */
  findRefund(lookup: RefundLookup): Promise<RefundLookupOutcome>;
  /**
   * Checks that a pushed request comes from the provider (its signature over
   * the raw body) before reading it; null when it does not.
   */
  readEvent(rawBody: Buffer, headers: IncomingHttpHeaders): ProviderEvent | null;
}

/** Cash and bank transfer: the owner collects and records the money. */
export abstract class OfflineProvider implements PaymentProvider {
  abstract readonly name: string;
  readonly collect = 'offline' as const;

  supportsCurrency(): boolean {
    return true;
  }

  instructions(_menuEntry: Record<string, unknown> | null): Record<string, unknown> | null {
    return null;
  }

  openCheckout(): Promise<CheckoutOutcome> {
    return Promise.resolve({ ok: false, error: `${this.name} is collected by the owner.` });
  }

  verify(): Promise<VerifyOutcome> {
    return Promise.resolve({ ok: false, error: `${this.name} is collected by the owner.` });
  }

  charge(): Promise<ChargeOutcome> {
    return Promise.resolve({ ok: false, error: `${this.name} is collected by the owner.` });
  }

  submitOtp(): Promise<ChargeOutcome> {
    return this.charge();
  }

  checkCharge(): Promise<ChargeOutcome> {
    return this.charge();
  }

  /** The owner gives the money back; the refund is recorded as they say. */
  refund(): Promise<RefundOutcome> {
    return Promise.resolve({ ok: true, refundId: null });
  }

  /** Offline refunds are recorded at once; none is ever left to look up. */
  findRefund(): Promise<RefundLookupOutcome> {
    return Promise.resolve({ ok: true, refundId: null });
  }

  readEvent(): ProviderEvent | null {
    return null;
  }
}
