import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/configuration.md holds one table of every setting. It is compared with
 * the code that reads them (src/config/config.ts and the areas it composes,
 * src/config/*-config.ts), so a setting cannot be added, dropped or given
 * another default without the table following.
 */
const ROOT = join(__dirname, '..');
const CONFIG_DIR = join(ROOT, 'src', 'config');
const code = readdirSync(CONFIG_DIR)
  .filter((file) => file === 'config.ts' || file.endsWith('-config.ts'))
  .sort()
  .map((file) => readFileSync(join(CONFIG_DIR, file), 'utf8'))
  .join('\n');
const doc = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');

/** Variable → default cell of the table's rows. */
function documented(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[1] ?? '');
    if (name) rows.set(name[1], cells[2]);
  }
  return rows;
}

/** Every variable the config reads. */
function readByCode(): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(/\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]);
  for (const match of code.matchAll(/required\('([A-Z][A-Z0-9_]*)'\)/g)) names.add(match[1]);
  return names;
}

/** The defaults the code states as literals, as the table must show them. */
function defaultsInCode(): Map<string, string> {
  const defaults = new Map<string, string>();
  const arithmetic = (expression: string) =>
    expression.split('*').reduce((product, factor) => product * Number(factor.trim()), 1);
  for (const [, name, fallback] of code.matchAll(/\bint\(env, '([A-Z0-9_]+)', ([\d\s*]+),/g)) {
    defaults.set(name, String(arithmetic(fallback)));
  }
  for (const [, name, fallback] of code.matchAll(
    /\boneOf\(\s*env,\s*'([A-Z0-9_]+)',\s*\[[^\]]*\](?: as const)?,\s*'([^']*)'/g,
  )) {
    defaults.set(name, fallback);
  }
  for (const [, name, fallback] of code.matchAll(/\bbool\(env, '([A-Z0-9_]+)', (true|false)\)/g)) {
    defaults.set(name, fallback);
  }
  for (const [, name, fallback] of code.matchAll(
    // An empty fallback ('') means unset, not a default.
    /\b(?:read|url)\(env, '([A-Z0-9_]+)'(?:, \[[^\]]*\])?\)\s*\?\?\s*'([^']+)'/g,
  )) {
    defaults.set(name, fallback);
  }
  return defaults;
}

describe('docs/configuration.md', () => {
  it('lists every setting the config reads, and nothing else', () => {
    const inCode = [...readByCode()].sort();
    expect(inCode.length).toBeGreaterThan(20);
    expect([...documented().keys()].sort()).toEqual(inCode);
  });

  it('gives each setting the default the code has', () => {
    const table = documented();
    const defaults = defaultsInCode();
    expect(defaults.get('TRUST_PROXY')).toBe('false');
    expect(defaults.get('MAX_UPLOAD_BYTES')).toBe('5242880');
    expect(defaults.size).toBeGreaterThan(15);
    const wrong = [...defaults]
      .filter(([name, fallback]) => !(table.get(name) ?? '').startsWith(`\`${fallback}\``))
      .map(([name, fallback]) => `${name}: code ${fallback}, table ${table.get(name)}`);
    expect(wrong).toEqual([]);
  });

  it('is the list .env.example offers too', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const offered = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect(offered.sort()).toEqual([...readByCode()].sort());
  });

  it('gives the webhook retry schedule its default', () => {
    const schedule = /DEFAULT_WEBHOOK_RETRY_SCHEDULE = \[([\d, ]+)\]/.exec(code)![1];
    expect(documented().get('WEBHOOK_RETRY_SCHEDULE')).toBe(`\`${schedule.replace(/\s/g, '')}\``);
  });
});
