import { QrAnswerCache } from './qr-answer-cache';

describe('QrAnswerCache', () => {
  it('holds at most its budget, the least recently used out first', () => {
    const cache = new QrAnswerCache(100);
    cache.set('a', Buffer.alloc(20));
    cache.set('b', Buffer.alloc(20));
    cache.set('c', Buffer.alloc(20));
    expect(cache.get('a')).toBeDefined();
    cache.set('d', Buffer.alloc(20));
    cache.set('e', Buffer.alloc(20));
    expect(cache.size).toBe(100);
    cache.set('f', Buffer.alloc(20));
    expect(cache.size).toBe(100);
    // b was the least recently used: a was read after it was stored.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
  });

  it('keeps nothing larger than a quarter of the budget', () => {
    const cache = new QrAnswerCache(100);
    cache.set('big', Buffer.alloc(26));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
