import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkAnswers, readDoc, ROOT, runBlocks, shellBlocks } from './support/doc-shell';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The README's first call and docs/getting-started.md, run as a reader runs
 * them: their shell blocks in order, in one bash session, against a fresh
 * service on the development key; each answer must match what the page
 * shows. The block that starts the service (`npm run serve`) is the one not
 * run: the test starts the service itself.
 */
const startsTheService = (code: string) => /^npm (run serve|ci|start)\b/.test(code.trim());

describe('the documentation runs as written', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_KEYS: '' });
  });
  afterAll(() => t?.close());

  it('the README: the first call answers what it shows', async () => {
    const blocks = shellBlocks(readDoc('README.md'));
    expect(blocks.filter((block) => startsTheService(block.code))).toHaveLength(1);
    const calls = blocks.filter((block) => block.code.includes('curl'));
    expect(calls).toHaveLength(1);
    expect(calls[0].expected).toHaveLength(1);
    // Twice: the sample data is unique on every run.
    for (let run = 0; run < 2; run++) {
      expect(checkAnswers(await runBlocks(calls, t.baseUrl), 'README.md')).toEqual([]);
    }
  });

  it('docs/getting-started.md: every block, in order, from sign-up to a paid order', async () => {
    const page = 'docs/getting-started.md';
    const blocks = shellBlocks(readDoc(page));
    expect(blocks.filter((block) => startsTheService(block.code))).toHaveLength(1);
    const run = blocks.filter((block) => !startsTheService(block.code));
    expect(run[0].code).toMatch(/^set -euo pipefail$/m);
    expect(run.filter((block) => block.expected.length > 0).length).toBeGreaterThanOrEqual(8);
    // Twice on one database: a second reader's sample data does not collide.
    for (let pass = 0; pass < 2; pass++) {
      expect(checkAnswers(await runBlocks(run, t.baseUrl), page)).toEqual([]);
    }
  });

  it('docs/getting-started.md stops at a refused login instead of going on with no token', async () => {
    const blocks = shellBlocks(readDoc('docs/getting-started.md')).filter(
      (block) => !startsTheService(block.code),
    );
    const login = blocks.findIndex((block) => block.code.includes('/user/login'));
    expect(login).toBeGreaterThan(0);
    // The variables block, then the login without the sign-up before it.
    const refused = [blocks[0], blocks[login], { line: 0, code: 'echo went-on', expected: [] }];
    await expect(runBlocks(refused, t.baseUrl)).rejects.toThrow(/returned error: 401/);
    await expect(runBlocks(refused, t.baseUrl)).rejects.not.toThrow(/went-on/);
  });

  it('the README stays a front page of at most 150 lines', () => {
    expect(readDoc('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it('docs/README.md indexes every page of docs/', () => {
    const index = readDoc('docs/README.md');
    const pages = readdirSync(join(ROOT, 'docs')).filter(
      (name) => name.endsWith('.md') && name !== 'README.md',
    );
    expect(pages.filter((name) => !index.includes(`(${name})`))).toEqual([]);
  });
});
