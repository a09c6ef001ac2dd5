import { findUnstorableText, jsonDepth, MAX_JSON_DEPTH, refuseDeepJson } from './input-rules';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonDepth', () => {
  it.each([
    ['1', 1],
    ['"text"', 1],
    ['{}', 1],
    ['[[]]', 2],
    ['{"a":[{"b":[]}]}', 4],
    ['{"a":"[[[[[[","b":"\\"[["}', 1],
    ['[' + '['.repeat(9999) + ']'.repeat(10000), 10000],
  ])('%s is %i deep', (text, depth) => expect(jsonDepth(bytes(text))).toBe(depth));

  it('refuses one level more than the limit, not the limit itself', () => {
    const at = (depth: number) => bytes('['.repeat(depth) + ']'.repeat(depth));
    expect(() => refuseDeepJson(at(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => refuseDeepJson(at(MAX_JSON_DEPTH + 1))).toThrow(/nested deeper/);
  });
});

describe('findUnstorableText', () => {
  it('names the first value or key holding U+0000 or a lone surrogate', () => {
    expect(findUnstorableText({ a: 'ok', b: [{ c: 'x\u0000' }] }, '')).toBe('b.0.c');
    expect(findUnstorableText({ ['k\ud800']: 1 }, '')).toBe('k\ud800');
    expect(findUnstorableText('\udc00', 'uuid')).toBe('uuid');
    expect(findUnstorableText({ pizza: '\ud83c\udf55', empty: '' }, '')).toBeUndefined();
  });

  it('leaves raw bodies alone', () => {
    expect(findUnstorableText(Buffer.from([0, 0xed, 0xa0, 0x80]), '')).toBeUndefined();
  });
});
