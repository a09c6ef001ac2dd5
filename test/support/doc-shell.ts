import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a page's shell blocks in order and checks each answer against what the
 * page shows. A block's expected answers are its `# …` lines (one JSON value
 * each) followed by the ```json block right after it, if any. In an expected
 * value, a string with `…` stands for any string that starts with the text
 * before it (a uuid, a time, a random suffix); everything else must be equal,
 * objects with the same keys.
 */
export interface ShellBlock {
  /** Line of the opening fence, 1-based. */
  line: number;
  code: string;
  expected: unknown[];
}

export const ROOT = join(__dirname, '..', '..');

export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The ```sh blocks of a Markdown text, in order, with their expected answers. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(sh|bash)\s*$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const code: string[] = [];
    let j = i + 1;
    for (; j < lines.length && lines[j].trim() !== '```'; j++) code.push(lines[j].slice(indent));
    const expected: unknown[] = [];
    for (const [n, text] of code.entries()) {
      const comment = /^# (.*)$/.exec(text);
      if (comment) expected.push(parseExpected(comment[1], `line ${i + 2 + n}`));
    }
    let k = j + 1;
    while (k < lines.length && lines[k].trim() === '') k++;
    if (k < lines.length && /^\s*```json\s*$/.test(lines[k])) {
      const json: string[] = [];
      let m = k + 1;
      for (; m < lines.length && lines[m].trim() !== '```'; m++) json.push(lines[m]);
      expected.push(parseExpected(json.join('\n'), `the json block at line ${k + 1}`));
      j = m;
    }
    blocks.push({ line: i + 1, code: code.join('\n'), expected });
    i = j;
  }
  return blocks;
}

function parseExpected(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`The expected answer at ${where} is not JSON: ${text}`);
  }
}

/** Where `expected` and `actual` differ, as readable lines (none: they match). */
export function differences(expected: unknown, actual: unknown, at = '$'): string[] {
  if (typeof expected === 'string' && expected.includes('…')) {
    const prefix = expected.slice(0, expected.indexOf('…'));
    return typeof actual === 'string' && actual.startsWith(prefix)
      ? []
      : [`${at}: expected a string starting with "${prefix}", got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return [`${at}: expected ${expected.length} entries, got ${JSON.stringify(actual)}`];
    }
    return expected.flatMap((item, index) => differences(item, actual[index], `${at}[${index}]`));
  }
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const keys = Object.keys(expected).sort();
    const actualKeys = Object.keys(actual).sort();
    if (keys.join() !== actualKeys.join()) {
      return [`${at}: expected the fields ${keys.join(', ')}, got ${actualKeys.join(', ')}`];
    }
    return keys.flatMap((key) =>
      differences(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        `${at}.${key}`,
      ),
    );
  }
  return expected === actual
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** The JSON values in a block's output, each ending at the end of a line. */
export function jsonValues(output: string): unknown[] {
  const values: unknown[] = [];
  let pending = '';
  for (const line of output.split('\n')) {
    pending += `${line}\n`;
    if (pending.trim() === '') {
      pending = '';
      continue;
    }
    try {
      values.push(JSON.parse(pending));
      pending = '';
    } catch {
      // not a whole value yet
    }
  }
  if (pending.trim() !== '') throw new Error(`Output that is not JSON: ${pending}`);
  return values;
}

export interface BlockRun {
  block: ShellBlock;
  output: string;
}

/**
 * Runs the blocks in one bash process, in order, with `localhost:3000`
 * pointing at `baseUrl`'s host (and each `hosts` key at its value); rejects
 * with the output when bash fails.
 */
export async function runBlocks(
  blocks: ShellBlock[],
  baseUrl: string,
  hosts: Record<string, string> = {},
): Promise<BlockRun[]> {
  const replacements = Object.entries({ 'localhost:3000': new URL(baseUrl).host, ...hosts });
  const rewrite = (code: string) =>
    replacements.reduce((text, [from, to]) => text.replaceAll(from, to), code);
  const marker = (index: number) => `@@block-${index}@@`;
  const script = blocks
    .map((block, index) => `printf '\\n%s\\n' '${marker(index)}'\n${rewrite(block.code)}`)
    .join('\n');
  const { code, stdout, stderr } = await new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
  }>((resolve) => {
    const child = spawn('bash', ['-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
  });
  if (code !== 0) {
    throw new Error(`The blocks failed (exit ${code}):\n${stdout}\n--- stderr ---\n${stderr}`);
  }
  return blocks.map((block, index) => {
    const start = stdout.indexOf(marker(index)) + marker(index).length;
    const next = stdout.indexOf(marker(index + 1));
    return { block, output: stdout.slice(start, next < 0 ? undefined : next) };
  });
}

/** Each block's answers against what the page shows: one line per difference. */
export function checkAnswers(runs: BlockRun[], page: string): string[] {
  return runs.flatMap(({ block, output }) => {
    if (block.expected.length === 0) return [];
    const where = `${page}:${block.line}`;
    let actual: unknown[];
    try {
      actual = jsonValues(output);
    } catch (error) {
      return [`${where}: ${(error as Error).message}`];
    }
    if (actual.length !== block.expected.length) {
      return [
        `${where}: expected ${block.expected.length} answers, got ${actual.length}: ${output}`,
      ];
    }
    return block.expected.flatMap((expected, index) =>
      differences(expected, actual[index]).map((line) => `${where}: ${line}`),
    );
  });
}
