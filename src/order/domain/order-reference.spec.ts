import { generateOrderReference, REFERENCE_ALPHABET } from './order-reference';

describe('order reference', () => {
  it('is two groups of four unambiguous characters', () => {
    for (let i = 0; i < 200; i++) {
      expect(generateOrderReference()).toMatch(/^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
    }
  });

  it('differs from one call to the next', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => generateOrderReference()));
    expect(seen.size).toBe(2000);
  });

  it('skips bytes that would bias the choice', () => {
    let call = 0;
    // First call: only biased bytes (248..255); then the byte 0 ("A") over and over.
    const random = (size: number) => Buffer.alloc(size, call++ === 0 ? 250 : 0);
    expect(generateOrderReference(random)).toBe(
      `${REFERENCE_ALPHABET[0].repeat(4)}-${REFERENCE_ALPHABET[0].repeat(4)}`,
    );
  });
});
