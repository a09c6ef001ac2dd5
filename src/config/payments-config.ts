import { ConfigError, Env, int, read, url } from './env-readers';

export interface PaystackConfig {
  secretKey: string;
  baseUrl: string;
  /** How long a call to Paystack may take before it counts as failed. */
  timeoutMs: number;
}

/** Comma-separated http(s) origins such as https://shop.example. */
export function origins(env: Env, name: string): string[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        name,
        `holds "${origin}", which is not an origin like https://shop.example`,
      );
    }
  }
  return list;
}

/** Paystack's settings; undefined without PAYSTACK_SECRET_KEY. */
export function paystackConfig(env: Env): PaystackConfig | undefined {
  const secretKey = read(env, 'PAYSTACK_SECRET_KEY');
  if (secretKey === undefined) return undefined;
  return {
    secretKey,
    baseUrl: (
      url(env, 'PAYSTACK_BASE_URL', ['http:', 'https:']) ?? 'https://api.paystack.co'
    ).replace(/\/$/, ''),
    timeoutMs: int(env, 'PAYSTACK_TIMEOUT_MS', 10000, 1, 120000),
  };
}
