import { HeldAnswers } from './storefront-held';
import { StorefrontAnswer } from './storefront-document';

function answer(etag: string): StorefrontAnswer {
  return { etag, validUntilMs: null, gzipped: Buffer.from(etag) };
}

describe('HeldAnswers', () => {
  it('gives an answer back only under the ETag it was held with', () => {
    const held = new HeldAnswers(100);
    held.hold('a', answer('W/"1"'), 10);
    expect(held.get('a', 'W/"1"')?.answer.etag).toBe('W/"1"');
    expect(held.get('a', 'W/"2"')).toBeUndefined();
    expect(held.get('b', 'W/"1"')).toBeUndefined();
  });

  it('replaces the older answer of a key', () => {
    const held = new HeldAnswers(100);
    held.hold('a', answer('W/"1"'), 60);
    held.hold('a', answer('W/"2"'), 60);
    expect(held.size).toBe(1);
    expect(held.get('a', 'W/"1"')).toBeUndefined();
    expect(held.get('a', 'W/"2"')).toBeDefined();
  });

  it('drops the least recently used answers past its byte budget, and never holds one larger', () => {
    const held = new HeldAnswers(100);
    held.hold('a', answer('A'), 40);
    held.hold('b', answer('B'), 40);
    held.get('a', 'A');
    held.hold('c', answer('C'), 40);
    expect(held.get('b', 'B')).toBeUndefined();
    expect(held.get('a', 'A')).toBeDefined();
    expect(held.get('c', 'C')).toBeDefined();
    held.hold('huge', answer('H'), 101);
    expect(held.get('huge', 'H')).toBeUndefined();
    expect(held.size).toBe(2);
  });
});
