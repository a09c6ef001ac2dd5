import { ConfigError, Env, read } from './env-readers';

/** CORS_ORIGINS: '*', or http(s) origins separated by commas; unset, closed in production. */
export function corsOrigins(env: Env, production: boolean): string[] | '*' {
  const corsRaw = read(env, 'CORS_ORIGINS');
  let allowed: string[] | '*';
  if (corsRaw === undefined) {
    allowed = production ? [] : '*';
  } else if (corsRaw === '*') {
    allowed = '*';
  } else {
    allowed = corsRaw
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    for (const origin of allowed) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new ConfigError(
          'CORS_ORIGINS',
          `holds "${origin}", which is not an origin like https://shop.example`,
        );
      }
    }
  }
  return allowed;
}

/** TRUST_PROXY: Express `trust proxy` (true, false, a hop count, or addresses and subnets). */
export function trustProxy(env: Env): boolean | number | string[] {
  // Default: no proxy is trusted, so a client that sends X-Forwarded-For itself
  // cannot choose the address its per-IP limits are counted under.
  const trustRaw = read(env, 'TRUST_PROXY') ?? 'false';
  let trusted: boolean | number | string[];
  if (trustRaw === 'true' || trustRaw === 'false') {
    trusted = trustRaw === 'true';
  } else if (/^\d+$/.test(trustRaw)) {
    trusted = Number(trustRaw);
  } else {
    trusted = trustRaw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (trusted.some((part) => !/^[0-9a-zA-Z.:/]+$/.test(part))) {
      throw new ConfigError(
        'TRUST_PROXY',
        'must be true, false, a hop count, or addresses/subnets separated by commas',
      );
    }
  }
  return trusted;
}

/** METRICS_TOKEN: the bearer token GET /metrics requires, at least 16 characters. */
export function metricsToken(env: Env): string | undefined {
  const token = read(env, 'METRICS_TOKEN');
  if (token !== undefined && token.length < 16) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  }
  return token;
}
