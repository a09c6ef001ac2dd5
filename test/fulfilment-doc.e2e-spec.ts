import { checkAnswers, readDoc, runBlocks, shellBlocks } from './support/doc-shell';
import { startTestApp, TestApp } from './support/test-app';

/**
 * docs/fulfilment.md's examples, run as a reader runs them: its shell blocks
 * in order, in one bash session, against a fresh service on the development
 * key; each answer must match what the page shows.
 */
describe('docs/fulfilment.md runs as written', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_KEYS: '' });
  });
  afterAll(() => t?.close());

  it('a delivery below and above its minimum, a pre-order while closed, slots, and the table sheet', async () => {
    const page = 'docs/fulfilment.md';
    const blocks = shellBlocks(readDoc(page));
    expect(blocks[0].code).toMatch(/^set -euo pipefail$/m);
    expect(blocks.filter((block) => block.expected.length > 0).length).toBeGreaterThanOrEqual(8);
    expect(checkAnswers(await runBlocks(blocks, t.baseUrl), page)).toEqual([]);
  });
});
