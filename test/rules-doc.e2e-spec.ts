import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * docs/rules.md numbers the rules of the service R1 … Rn. Each number must be
 * named where the rule is enforced (src/) and by a test of it (test/), so
 * "where is rule X enforced?" is answered by a search. The numbers of an
 * outside contract (D-numbers) are never used in the code or the API document.
 */
const root = join(__dirname, '..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function textOf(dir: string, skip: (path: string) => boolean = () => false): string {
  return filesUnder(join(root, dir))
    .filter((path) => /\.(ts|json)$/.test(path) && !skip(path))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n');
}

const rulesDoc = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
const defined = [...rulesDoc.matchAll(/\*\*R(\d+) — /g)].map((match) => Number(match[1]));
const cites = (text: string, rule: number) => new RegExp(`\\bR${rule}\\b`).test(text);

describe('the numbered rules of docs/rules.md', () => {
  const src = textOf('src');
  const tests = textOf('test', (path) => relative(root, path) === 'test/rules-doc.e2e-spec.ts');

  it('are numbered R1 to Rn, each once and in order', () => {
    expect(defined.length).toBeGreaterThan(60);
    expect(defined).toEqual(defined.map((_, index) => index + 1));
  });

  it('are each named where they are enforced, in src/', () => {
    expect(defined.filter((rule) => !cites(src, rule)).map((rule) => `R${rule}`)).toEqual([]);
  });

  it('are each named by a test, in test/', () => {
    expect(defined.filter((rule) => !cites(tests, rule)).map((rule) => `R${rule}`)).toEqual([]);
  });

  it('leave D-numbers out of src/ and openapi/', () => {
    const dNumber = /\bD[0-9]{1,2}\b/;
    const offenders = [...filesUnder(join(root, 'src')), ...filesUnder(join(root, 'openapi'))]
      .filter((path) => dNumber.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(offenders).toEqual([]);
  });
});
