import { ConfigError, Env, read } from './env-readers';

/** Default waits between webhook attempts: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [30, 120, 600, 3600, 21600, 86400];

/** Comma-separated whole seconds, each 1 s … 7 days, at most 20 of them. */
export function retrySchedule(env: Env, name: string): number[] {
  const raw = read(env, name);
  if (raw === undefined) return [...DEFAULT_WEBHOOK_RETRY_SCHEDULE];
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d{1,6}$/.test(part))) {
    throw new ConfigError(
      name,
      `must be up to 20 whole numbers of seconds separated by commas, got "${raw}"`,
    );
  }
  const seconds = parts.map(Number);
  if (seconds.some((value) => value < 1 || value > 7 * 86400)) {
    throw new ConfigError(name, 'must hold waits between 1 second and 7 days');
  }
  return seconds;
}
