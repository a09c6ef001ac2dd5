import { CoalescedReads } from './coalesced-reads';

describe('CoalescedReads', () => {
  it('sends the keys asked for together as one read, and shares equal keys', async () => {
    const sent: string[][] = [];
    const reads = new CoalescedReads<number>(async (keys) => {
      sent.push(keys);
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.length]));
    });
    const answers = await Promise.all([
      reads.read('a'),
      reads.read('bb'),
      reads.read('a'),
      reads.read('missing'),
    ]);
    expect(answers).toEqual([1, 2, 1, undefined]);
    expect(sent).toEqual([['a', 'bb', 'missing']]);
  });

  it('never answers a caller from a read sent before it asked', async () => {
    const sent: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reads = new CoalescedReads<number>(async (keys) => {
      sent.push(keys);
      await gate;
      return new Map(keys.map((key) => [key, sent.length]));
    });
    const first = reads.read('k');
    await new Promise((resolve) => setImmediate(resolve));
    // The first read is on its way; this one must go in a statement of its own.
    const second = reads.read('k');
    await new Promise((resolve) => setImmediate(resolve));
    release();
    expect(await first).toBe(2);
    expect(await second).toBe(2);
    expect(sent).toEqual([['k'], ['k']]);
  });

  it('starts another statement past the key limit, and passes a failure to every caller', async () => {
    const sent: string[][] = [];
    const reads = new CoalescedReads<string>(async (keys) => {
      sent.push(keys);
      if (keys.includes('bad')) throw new Error('read failed');
      return new Map(keys.map((key) => [key, key]));
    }, 2);
    const results = await Promise.allSettled([
      reads.read('a'),
      reads.read('b'),
      reads.read('bad'),
      reads.read('c'),
    ]);
    expect(sent).toEqual([
      ['a', 'b'],
      ['bad', 'c'],
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
  });
});
