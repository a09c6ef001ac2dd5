/** The channels a guest opens as a charge from the order page. */
export const CHARGE_CHANNELS = ['ussd', 'mobile_money', 'bank_transfer'] as const;
export type ChargeChannel = (typeof CHARGE_CHANNELS)[number];

/** The banks whose USSD codes Paystack charges through. */
export const USSD_BANKS = ['737', '919', '822', '966'] as const;

/** Mobile money providers, and the currency each takes. */
export const MOBILE_MONEY_PROVIDERS = ['mtn', 'atl', 'vod', 'mpesa'] as const;
const MOBILE_MONEY_CURRENCY: Readonly<Record<string, string>> = {
  mtn: 'GHS',
  atl: 'GHS',
  vod: 'GHS',
  mpesa: 'KES',
};

/** USSD codes, mobile money prompts and card OTPs lapse after this long (a transfer's account: Paystack says). */
export const CHARGE_OPEN_MS = 10 * 60_000;
/** How long the account of a bank transfer charge is asked to stay open. */
export const TRANSFER_OPEN_MS = 30 * 60_000;

/** The currency a charge of this channel (and mobile money provider) takes. */
export function chargeCurrency(channel: ChargeChannel, provider: string | undefined): string {
  if (channel === 'mobile_money') return MOBILE_MONEY_CURRENCY[provider ?? ''] ?? 'GHS';
  return 'NGN';
}

/**
 * Whether the menu's Paystack entry lets the guest pay by this channel: an
 * entry without `channels` offers every channel its currency allows.
 */
export function channelOffered(
  entry: Record<string, unknown> | null,
  channel: ChargeChannel,
): boolean {
  const channels = entry?.channels;
  return !Array.isArray(channels) || channels.includes(channel);
}
