/**
 * A record's private settings: its owner's alone, never in a public answer
 * (the storefront, a read by meta_key, a public list or read). The Paystack
 * subaccount code says where a business's card money settles; any
 * `extra_data` key that starts with `private_` is the owner's way to keep a
 * setting of their own out of public view.
 */
const PRIVATE_KEYS = new Set(['paystack_subaccount_code']);
const PRIVATE_PREFIX = 'private_';

export function isPrivateSetting(key: string): boolean {
  return PRIVATE_KEYS.has(key) || key.startsWith(PRIVATE_PREFIX);
}

// R69: private settings.
/** `extra_data` without the private settings (the same object when it has none). */
export function publicExtraData(extraData: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(extraData);
  if (!keys.some(isPrivateSetting)) return extraData;
  const out: Record<string, unknown> = {};
  for (const key of keys) if (!isPrivateSetting(key)) out[key] = extraData[key];
  return out;
}
