import { AppConfig } from '../config/config';
import { ListPageCache } from './list-page-cache';

const cacheOf = (bytes: number) => new ListPageCache({ listPageCacheBytes: bytes } as AppConfig);
const page = (bytes: number, fill = 'x') => Buffer.alloc(bytes, fill);

describe('ListPageCache', () => {
  it('keeps nothing with 0 bytes', () => {
    const cache = cacheOf(0);
    expect(cache.enabled).toBe(false);
    cache.set('a', page(1));
    expect(cache.get('a')).toBeUndefined();
  });

  it('pushes out the least recently used pages to stay within its bytes', () => {
    const cache = cacheOf(400);
    cache.set('a', page(100, 'a'));
    cache.set('b', page(100, 'b'));
    cache.set('c', page(100, 'c'));
    cache.set('d', page(100, 'd'));
    // Reading a makes b the oldest.
    expect(cache.get('a')?.toString()).toBe('a'.repeat(100));
    cache.set('e', page(100, 'e'));
    expect(cache.get('b')).toBeUndefined();
    for (const key of ['a', 'c', 'd', 'e']) expect(cache.get(key)).toBeDefined();
  });

  it('replaces a page under the same ETag without counting it twice', () => {
    const cache = cacheOf(400);
    for (let i = 0; i < 10; i++) cache.set('a', page(100));
    cache.set('b', page(100));
    cache.set('c', page(100));
    cache.set('d', page(100));
    for (const key of ['a', 'b', 'c', 'd']) expect(cache.get(key)).toBeDefined();
  });

  it('does not keep a page larger than a quarter of its bytes', () => {
    const cache = cacheOf(400);
    cache.set('small', page(100));
    cache.set('big', page(101));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('small')).toBeDefined();
  });
});
