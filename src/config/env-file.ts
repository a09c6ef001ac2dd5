import { parse } from 'dotenv';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Copies the settings of a `.env` file (by default the one in the working
 * directory) into `env`, never replacing a variable that is already set: the
 * real environment always wins over the file. A missing file is no error.
 * Returns the names it set.
 */
export function loadEnvFile(
  path = resolve(process.cwd(), '.env'),
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (!existsSync(path)) return [];
  const parsed = parse(readFileSync(path));
  const loaded: string[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    loaded.push(name);
  }
  return loaded;
}
