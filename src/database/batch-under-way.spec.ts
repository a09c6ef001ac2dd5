import { BatchUnderWay } from './batch-under-way';

describe('BatchUnderWay', () => {
  /** A writer whose statements answer only when released, recording what each carried. */
  function gatedWriter() {
    const sent: number[][] = [];
    const gates: Array<() => void> = [];
    const writeMany = (items: number[]) => {
      sent.push(items);
      return new Promise<number[]>((resolve) =>
        gates.push(() => resolve(items.map((item) => item * 10))),
      );
    };
    return { sent, gates, writeMany };
  }

  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('sends an item alone when nothing is under way, and what came meanwhile together next', async () => {
    const { sent, gates, writeMany } = gatedWriter();
    let idle = 0;
    const batches = new BatchUnderWay(writeMany, () => (idle += 1));
    const first = batches.add(1);
    await turn();
    const rest = [batches.add(2), batches.add(3), batches.add(4)];
    await turn();
    // The three wait for the statement under way: never answered by it.
    expect(sent).toEqual([[1]]);
    gates[0]();
    expect(await first).toBe(10);
    await turn();
    expect(sent).toEqual([[1], [2, 3, 4]]);
    expect(idle).toBe(0);
    gates[1]();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    await turn();
    expect(idle).toBe(1);
    // Idle again: the next item goes at once.
    const later = batches.add(5);
    await turn();
    expect(sent).toEqual([[1], [2, 3, 4], [5]]);
    gates[2]();
    expect(await later).toBe(50);
  });

  it('fails every item of a failed statement, even one that fails while built, and goes on', async () => {
    let calls = 0;
    const batches = new BatchUnderWay<number, number>((items) => {
      calls += 1;
      if (calls === 1) throw new Error('not built');
      if (calls === 2) return Promise.reject(new Error('refused'));
      return Promise.resolve(items);
    });
    const outcomes = await Promise.allSettled([batches.add(1), batches.add(2), batches.add(3)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toEqual(new Error('not built'));
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect(await batches.add(4)).toBe(4);
  });
});
