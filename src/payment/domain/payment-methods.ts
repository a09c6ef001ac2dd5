// R18: card provider name.
/** The accepted payment methods, `cash` by default; `paystack` is the card provider. */
export const PAYMENT_PROCESSORS = ['paystack', 'bank_transfer', 'cash'] as const;
export type PaymentProcessor = (typeof PAYMENT_PROCESSORS)[number];

/** Fields an array entry may use to name its provider. */
const NAME_FIELDS = ['provider', 'key', 'name', 'id', 'slug', 'type', 'value'] as const;

function normalise(name: string): string {
  return name.trim().toLowerCase();
}

function isDisabled(value: unknown): boolean {
  if (value === false || value === null) return true;
  return (
    typeof value === 'object' &&
    !Array.isArray(value) &&
    ((value as Record<string, unknown>).enabled === false ||
      (value as Record<string, unknown>).enable === false)
  );
}

/**
 * The providers a menu offers at checkout, each with the menu's entry for it,
 * from `menu_checkout_payments_providers` in either shape the clients store:
 * an array of names or of objects naming their provider, or an object keyed
 * by provider (the owner client's `{ "paystack": {...}, "bank_transfer": {...} }`).
 * An entry set to false, null or `{ enabled: false }` is not offered, and its
 * details (bank transfer instructions, say) are never used; when several
 * entries name one provider, the first one switched on is its entry. A
 * provider named without details (a bare name, `true`) has a null entry.
 */
export function offeredProviderEntries(
  providers: unknown,
): Map<string, Record<string, unknown> | null> {
  const offered = new Map<string, Record<string, unknown> | null>();
  const offer = (name: string, entry: unknown) => {
    const key = normalise(name);
    if (offered.has(key)) return;
    offered.set(
      key,
      entry && typeof entry === 'object' && !Array.isArray(entry)
        ? (entry as Record<string, unknown>)
        : null,
    );
  };
  if (Array.isArray(providers)) {
    for (const entry of providers) {
      if (typeof entry === 'string') {
        offer(entry, null);
      } else if (entry && typeof entry === 'object' && !isDisabled(entry)) {
        for (const field of NAME_FIELDS) {
          const name = (entry as Record<string, unknown>)[field];
          if (typeof name === 'string') offer(name, entry);
        }
      }
    }
  } else if (providers && typeof providers === 'object') {
    for (const [name, value] of Object.entries(providers)) {
      if (!isDisabled(value)) offer(name, value);
    }
  }
  return offered;
}

/** The names of the providers a menu offers (see `offeredProviderEntries`). */
export function offeredProviders(providers: unknown): Set<string> {
  return new Set(offeredProviderEntries(providers).keys());
}

/**
 * The menu's entry for a provider it offers: null when the menu does not
 * offer it, offers it switched off, or names it without details.
 */
export function offeredProviderEntry(
  providers: unknown,
  name: string,
): Record<string, unknown> | null {
  return offeredProviderEntries(providers).get(normalise(name)) ?? null;
}

/** R42: cash is always possible; any other method must be offered by the menu. */
export function isPaymentOffered(processor: PaymentProcessor, menuProviders: unknown): boolean {
  return processor === 'cash' || offeredProviders(menuProviders).has(processor);
}

/** The channels the menu's entry for a provider names (checked when the menu was written); null for all. */
export function checkoutChannels(menu: Record<string, unknown>, provider: string): string[] | null {
  const channels = offeredProviderEntry(menu.menu_checkout_payments_providers, provider)?.channels;
  return Array.isArray(channels) &&
    channels.length > 0 &&
    channels.every((channel) => typeof channel === 'string')
    ? (channels as string[])
    : null;
}
