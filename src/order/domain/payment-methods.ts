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
 * The providers a menu offers at checkout, from `menu_checkout_payments_providers`
 * in either shape the clients store: an array of names or of
 * objects naming their provider, or an object keyed by provider (the owner
 * client's `{ "paystack": {...}, "bank_transfer": {...} }`). An entry set to
 * false, null or `{ enabled: false }` is not offered.
 */
export function offeredProviders(providers: unknown): Set<string> {
  const offered = new Set<string>();
  if (Array.isArray(providers)) {
    for (const entry of providers) {
      if (typeof entry === 'string') {
        offered.add(normalise(entry));
      } else if (entry && typeof entry === 'object' && !isDisabled(entry)) {
        for (const field of NAME_FIELDS) {
          const name = (entry as Record<string, unknown>)[field];
          if (typeof name === 'string') offered.add(normalise(name));
        }
      }
    }
  } else if (providers && typeof providers === 'object') {
    for (const [name, value] of Object.entries(providers)) {
      if (!isDisabled(value)) offered.add(normalise(name));
    }
  }
  return offered;
}

/** Rule 1: cash is always possible; any other method must be offered by the menu. */
export function isPaymentOffered(processor: PaymentProcessor, menuProviders: unknown): boolean {
  return processor === 'cash' || offeredProviders(menuProviders).has(processor);
}
