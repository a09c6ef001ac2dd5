import { Client } from 'pg';
import { EventBus } from '../../src/database/event-bus';
import { queryBuilder, Table } from '../../src/database/query-builder';
import { writeBeforeCommit } from '../../src/database/writes-before-commit';
import { createMediumContext, MediumContext } from '../support/medium';

interface Probe {
  label: string;
}

declare module '../../src/database/event-bus' {
  interface AppEvents {
    'probe.happened': Probe;
  }
}

const probes = queryBuilder<{ probeRows: Table<{ label: string }> }>();

/** In-process events: handlers in the transaction commit or roll back with it; committed ones follow the commit. */
describe('the event bus', () => {
  let ctx: MediumContext;
  let bus: EventBus;
  const seen: string[] = [];

  beforeAll(async () => {
    ctx = await createMediumContext();
    bus = ctx.get(EventBus);
    await ctx.sql(`CREATE TABLE probe_rows (label text PRIMARY KEY)`);
    bus.on('probe.happened', async ({ label }, tx) => {
      seen.push(`in:${label}`);
      await tx.manager.query(`INSERT INTO probe_rows (label) VALUES ($1)`, [label]);
    });
    bus.onCommitted('probe.happened', ({ label }) => {
      seen.push(`committed:${label}`);
    });
  });
  afterAll(() => ctx?.close());
  beforeEach(() => (seen.length = 0));

  const labels = async () =>
    (await ctx.sql<{ label: string }>(`SELECT label FROM probe_rows ORDER BY label`)).map(
      (row) => row.label,
    );

  it('runs in-transaction handlers with the transaction, committed ones after the commit', async () => {
    const answer = await bus.transaction(async (tx) => {
      await tx.emit('probe.happened', { label: 'a' });
      tx.afterCommit(() => void seen.push('effect'));
      expect(seen).toEqual(['in:a']);
      return 42;
    });
    expect(answer).toBe(42);
    expect(seen).toEqual(['in:a', 'committed:a', 'effect']);
    expect(await labels()).toEqual(['a']);
  });

  it('takes the handlers’ writes back and runs nothing after a rollback', async () => {
    await expect(
      bus.transaction(async (tx) => {
        await tx.emit('probe.happened', { label: 'b' });
        tx.afterCommit(() => void seen.push('effect'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(seen).toEqual(['in:b']);
    expect(await labels()).toEqual(['a']);
  });

  it('fails the transaction when an in-transaction handler fails', async () => {
    // A second 'a' breaks the primary key inside the handler.
    await expect(
      bus.transaction((tx) => tx.emit('probe.happened', { label: 'a' })),
    ).rejects.toThrow(/duplicate key/);
    expect(seen).toEqual(['in:a']);
  });

  it('runs the steps asked for before the commit after the work and its held writes, in order, in the transaction', async () => {
    await bus.transaction(async (tx) => {
      await writeBeforeCommit(tx.manager, probes.insertInto('probeRows').values({ label: 'held' }));
      tx.beforeCommit(async () => {
        seen.push('step:1');
        // What the work wrote and held is there; a step may ask for another, which runs after it.
        expect(
          await tx.manager.query(
            `SELECT label FROM probe_rows WHERE label IN ('c', 'held') ORDER BY label`,
          ),
        ).toEqual([{ label: 'c' }, { label: 'held' }]);
        tx.beforeCommit(async () => void seen.push('step:3'));
      });
      tx.beforeCommit(async () => {
        seen.push('step:2');
        await tx.manager.query(`INSERT INTO probe_rows (label) VALUES ('d')`);
      });
      await tx.emit('probe.happened', { label: 'c' });
      seen.push('work done');
    });
    expect(seen).toEqual(['in:c', 'work done', 'step:1', 'step:2', 'step:3', 'committed:c']);
    expect(await labels()).toEqual(['a', 'c', 'd', 'held']);
  });

  it('takes everything back when a step before the commit fails, and runs nothing after it', async () => {
    await expect(
      bus.transaction(async (tx) => {
        await tx.emit('probe.happened', { label: 'e' });
        tx.afterCommit(() => void seen.push('effect'));
        tx.beforeCommit(async () => {
          throw new Error('step refused');
        });
      }),
    ).rejects.toThrow('step refused');
    expect(seen).toEqual(['in:e']);
    expect(await labels()).toEqual(['a', 'c', 'd', 'held']);
  });

  /** What reaches the pg driver while `work` runs: COMMITs sent alone, and statements sent with theirs. */
  async function commitsDuring(work: () => Promise<unknown>) {
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      await work().catch(() => undefined);
      const sent = spy.mock.calls.map(([query]) => query as unknown);
      const carrying = (what: 'begin' | 'commit') =>
        sent.filter((query) => (query as { around?: Record<string, boolean> })?.around?.[what])
          .length;
      return {
        alone: sent.filter((query) => query === 'COMMIT').length,
        carried: carrying('commit'),
        begins: sent.filter((query) => query === 'START TRANSACTION' || query === 'BEGIN').length,
        beginsCarried: carrying('begin'),
      };
    } finally {
      spy.mockRestore();
    }
  }

  it('sends the COMMIT with the held writes’ statement, in one round trip, when no step is asked for', async () => {
    // The data source's subscribers hear of the commit as of TypeORM's own (the outbox wakes this way).
    const heard: string[] = [];
    const subscriber = {
      beforeTransactionCommit: () => void heard.push('before commit'),
      afterTransactionCommit: (event: { queryRunner: { isTransactionActive: boolean } }) =>
        void heard.push(`after commit, active ${event.queryRunner.isTransactionActive}`),
    };
    ctx.dataSource.subscribers.push(subscriber);
    const sent = await commitsDuring(() =>
      bus.transaction(async (tx) => {
        await tx.emit('probe.happened', { label: 'f' });
        await writeBeforeCommit(tx.manager, probes.insertInto('probeRows').values({ label: 'g' }));
      }),
    ).finally(() =>
      ctx.dataSource.subscribers.splice(ctx.dataSource.subscribers.indexOf(subscriber), 1),
    );
    // The handler's INSERT carried the BEGIN, the held writes' statement the COMMIT.
    expect(sent).toEqual({ alone: 0, carried: 1, begins: 0, beginsCarried: 1 });
    expect(heard).toEqual(['before commit', 'after commit, active false']);
    expect(seen).toEqual(['in:f', 'committed:f']);
    expect(await labels()).toEqual(['a', 'c', 'd', 'f', 'g', 'held']);
    // The connection goes back to the pool out of any transaction: the next one works.
    await bus.transaction((tx) => tx.emit('probe.happened', { label: 'h' }));
    expect(await labels()).toContain('h');
  });

  it('commits on its own without held writes, or with a step before the commit', async () => {
    expect(
      await commitsDuring(() => bus.transaction((tx) => tx.emit('probe.happened', { label: 'i' }))),
    ).toEqual({ alone: 1, carried: 0, begins: 0, beginsCarried: 1 });
    expect(
      await commitsDuring(() =>
        bus.transaction(async (tx) => {
          await writeBeforeCommit(
            tx.manager,
            probes.insertInto('probeRows').values({ label: 'j' }),
          );
          tx.beforeCommit(async () => undefined);
        }),
      ),
    ).toEqual({ alone: 1, carried: 0, begins: 0, beginsCarried: 1 });
    expect(await labels()).toEqual(expect.arrayContaining(['i', 'j']));
  });

  it('rolls everything back when the statement carrying the COMMIT fails, and runs nothing after it', async () => {
    const sent = await commitsDuring(async () => {
      await expect(
        bus.transaction(async (tx) => {
          await tx.emit('probe.happened', { label: 'k' });
          tx.afterCommit(() => void seen.push('effect'));
          // 'a' is taken: the held statement breaks the primary key.
          await writeBeforeCommit(
            tx.manager,
            probes.insertInto('probeRows').values({ label: 'a' }),
          );
        }),
      ).rejects.toThrow(/duplicate key/);
    });
    expect(sent).toEqual({ alone: 0, carried: 1, begins: 0, beginsCarried: 1 });
    expect(seen).toEqual(['in:k']);
    expect(await labels()).not.toContain('k');
    await bus.transaction((tx) => tx.emit('probe.happened', { label: 'l' }));
    expect(await labels()).toContain('l');
  });

  it('sends nothing for a transaction that sends no statement, and BEGIN with the COMMIT when the held writes are all it sends', async () => {
    expect(await commitsDuring(() => bus.transaction(async () => 7))).toEqual({
      alone: 0,
      carried: 0,
      begins: 0,
      beginsCarried: 0,
    });
    expect(
      await commitsDuring(() =>
        bus.transaction((tx) =>
          writeBeforeCommit(tx.manager, probes.insertInto('probeRows').values({ label: 'm' })),
        ),
      ),
    ).toEqual({ alone: 0, carried: 1, begins: 0, beginsCarried: 1 });
    expect(await labels()).toContain('m');
  });

  it('answers the first statement as TypeORM does, rows and counts, and rolls it back with the rest', async () => {
    await expect(
      bus.transaction(async (tx) => {
        // UPDATE answers [rows, affected]; the first statement is the one that carries the BEGIN.
        expect(
          await tx.manager.query(
            `UPDATE probe_rows SET label = 'a2' WHERE label = 'a' RETURNING label`,
          ),
        ).toEqual([[{ label: 'a2' }], 1]);
        expect(
          await tx.manager.query(`SELECT count(*)::int AS n FROM probe_rows WHERE label = 'a'`),
        ).toEqual([{ n: 0 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await labels()).toContain('a');
    expect(await labels()).not.toContain('a2');
  });
});
