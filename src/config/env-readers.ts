/**
 * Readers of environment variables: each takes the variable's name, refuses
 * a value it cannot use with a ConfigError that names the variable, and
 * answers its fallback when the variable is unset or blank.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

export type Env = Record<string, string | undefined>;

export function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

/** A PostgreSQL memory size between 1MB and 1GB: a number and kB, MB or GB. */
export function memorySize(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const match = /^(\d+)(kB|MB|GB)$/.exec(raw);
  const kb = match ? Number(match[1]) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[match[2]]! : NaN;
  if (!(kb >= 1024 && kb <= 1024 * 1024)) {
    throw new ConfigError(name, `must be a size from 1MB to 1GB such as 32MB, got "${raw}"`);
  }
  return raw;
}

export function oneOf<T extends string>(
  env: Env,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') {
    throw new ConfigError(name, `must be true or false, got "${raw}"`);
  }
  return raw === 'true';
}

export function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return raw;
}

/** "3600", "30s", "15m", "24h" or "7d" to seconds. */
export function parseDuration(name: string, raw: string): number {
  const match = /^(\d+)\s*([smhd]?)$/.exec(raw);
  if (!match)
    throw new ConfigError(name, `must be seconds or a duration like 15m, 24h, got "${raw}"`);
  const factor = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  const seconds = Number(match[1]) * factor;
  if (seconds < 60 || seconds > 30 * 86400) {
    throw new ConfigError(name, 'must be between 1 minute and 30 days');
  }
  return seconds;
}
