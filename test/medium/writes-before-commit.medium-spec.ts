import { EntityManager } from 'typeorm';
import { queryBuilder, noTables, sql } from '../../src/database/query-builder';
import {
  sendWritesTogether,
  writeBeforeCommit,
  writeLeadingBeforeCommit,
} from '../../src/database/writes-before-commit';
import { EventBus } from '../../src/database/event-bus';
import { preparedQuery } from '../../src/database/prepared-query';
import { createMediumContext, MediumContext } from '../support/medium';
import { serverOnly } from '../support/server-only';

interface HeldWriteRow {
  id: number;
  label: string;
  n: number;
}
const db = queryBuilder<{ heldWrites: HeldWriteRow }>();

/**
 * Writes held until just before commit: sent as one statement, committed or
 * rolled back with their transaction, and sent at once outside such a
 * transaction.
 */
describe('writes sent together before commit', () => {
  let ctx: MediumContext;

  beforeAll(async () => {
    ctx = await createMediumContext();
    await ctx.sql(
      `CREATE TABLE held_writes (id int PRIMARY KEY, label text NOT NULL, n int NOT NULL DEFAULT 0)`,
    );
  });
  afterAll(() => ctx?.close());
  beforeEach(() => ctx.sql('DELETE FROM held_writes'));

  const rows = () => ctx.sql(`SELECT id, label, n FROM held_writes ORDER BY id`);
  const insert = (id: number, label: string) =>
    db.insertInto('heldWrites').values({ id, label, n: 0 });

  /** The statements `manager` sends while `work` runs. */
  async function sentDuring(manager: EntityManager, work: () => Promise<unknown>) {
    const spy = jest.spyOn(manager, 'query');
    try {
      await work();
      return spy.mock.calls.map(([text, params]) => ({ sql: String(text), params }));
    } finally {
      spy.mockRestore();
    }
  }

  it('sends the held writes as one statement, with each its own parameters, after the work', async () => {
    let sent: Array<{ sql: string; params: unknown }> = [];
    await ctx.dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO held_writes (id, label) VALUES (1, 'read')`);
      sent = await sentDuring(manager, () =>
        sendWritesTogether(manager, async () => {
          await writeBeforeCommit(manager, insert(2, 'two'));
          await writeBeforeCommit(
            manager,
            db.updateTable('heldWrites').set({ n: 7 }).where('id', '=', 1),
          );
          await writeBeforeCommit(
            manager,
            noTables.selectNoFrom(sql`pg_notify(${'held_writes'}, ${'x'})`.as('notified')),
          );
          // Held: the work does not see them yet.
          const seen = await manager.query(
            `SELECT count(*)::int AS c FROM held_writes WHERE n = 7`,
          );
          expect(seen[0].c).toBe(0);
        }),
      );
    });
    const writes = sent.filter((statement) => !/count\(\*\)::int/.test(statement.sql));
    expect(writes).toHaveLength(1);
    expect(writes[0].sql).toMatch(/^WITH w0 AS \(insert/);
    expect(writes[0].params).toEqual([2, 'two', 0, 7, 1, 'held_writes', 'x']);
    expect(await rows()).toEqual([
      { id: 1, label: 'read', n: 7 },
      { id: 2, label: 'two', n: 0 },
    ]);
  });

  it('holds prepared queries like built ones: their text joins the statement, numbered after the others', async () => {
    const preparedInsert = preparedQuery(({ id, label }: { id: number; label: string }) =>
      db.insertInto('heldWrites').values({ id, label, n: 5 }),
    );
    const preparedNotify = preparedQuery(({ channel }: { channel: string }) =>
      noTables.selectNoFrom(sql`pg_notify(${channel}, 'y')`.as('notified')),
    );
    let sent: Array<{ sql: string; params: unknown }> = [];
    await ctx.dataSource.transaction(async (manager) => {
      sent = await sentDuring(manager, () =>
        sendWritesTogether(manager, async () => {
          await writeBeforeCommit(manager, insert(1, 'one'));
          await writeBeforeCommit(manager, preparedInsert({ id: 2, label: 'two' }));
          await writeBeforeCommit(manager, preparedNotify({ channel: 'held_writes' }));
          await writeBeforeCommit(manager, preparedInsert({ id: 3, label: 'three' }));
        }),
      );
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].params).toEqual([1, 'one', 0, 2, 'two', 5, 'held_writes', 3, 'three', 5]);
    // The SELECT part is read by the statement, so that it runs.
    expect(sent[0].sql).toContain('(SELECT count(*) FROM w2)');
    expect(await rows()).toEqual([
      { id: 1, label: 'one', n: 0 },
      { id: 2, label: 'two', n: 5 },
      { id: 3, label: 'three', n: 5 },
    ]);
  });

  it('sends a held write that has writes in a WITH of its own as a statement of its own, before the others', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'one')`);
    let sent: Array<{ sql: string; params: unknown }> = [];
    await ctx.dataSource.transaction(async (manager) => {
      sent = await sentDuring(manager, () =>
        sendWritesTogether(manager, async () => {
          await writeBeforeCommit(manager, insert(2, 'two'));
          // PostgreSQL takes a WITH of writes only as a whole statement, never as a part of another.
          await writeBeforeCommit(
            manager,
            db
              .with('bumped', (qb) =>
                qb.updateTable('heldWrites').set({ n: 5 }).where('id', '=', 1).returning('id'),
              )
              .selectFrom('bumped')
              .select('id'),
          );
          await writeBeforeCommit(manager, insert(3, 'three'));
        }),
      );
    });
    expect(sent.map((statement) => statement.sql.slice(0, 16))).toEqual([
      'with "bumped" as',
      'WITH w0 AS (inse',
    ]);
    expect(await rows()).toEqual([
      { id: 1, label: 'one', n: 5 },
      { id: 2, label: 'two', n: 0 },
      { id: 3, label: 'three', n: 0 },
    ]);
  });

  it('sends nothing when the work fails, and a failing write rolls the transaction back', async () => {
    await expect(
      ctx.dataSource.transaction((manager) =>
        sendWritesTogether(manager, async () => {
          await manager.query(`INSERT INTO held_writes (id, label) VALUES (1, 'kept?')`);
          await writeBeforeCommit(manager, insert(2, 'two'));
          throw new Error('refused');
        }),
      ),
    ).rejects.toThrow('refused');
    expect(await rows()).toEqual([]);

    await expect(
      ctx.dataSource.transaction((manager) =>
        sendWritesTogether(manager, async () => {
          await manager.query(`INSERT INTO held_writes (id, label) VALUES (1, 'kept?')`);
          await writeBeforeCommit(manager, insert(3, 'three'));
          await writeBeforeCommit(manager, insert(1, 'again'));
        }),
      ),
    ).rejects.toThrow(/duplicate key/);
    expect(await rows()).toEqual([]);
  });

  it('sends a write at once outside such a transaction', async () => {
    await ctx.dataSource.transaction(async (manager) => {
      await writeBeforeCommit(manager, insert(5, 'now'));
      const seen = await manager.query(`SELECT label FROM held_writes WHERE id = 5`);
      expect(seen).toEqual([{ label: 'now' }]);
    });
  });

  const bump = (id: number) =>
    db
      .updateTable('heldWrites')
      .set((eb) => ({ n: eb('n', '+', 1) }))
      .where('id', '=', id)
      .returning(['id', 'n', 'label']);

  it('sends a leading write first in the held writes’ statement and hands its rows on', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'led')`);
    let handed: unknown[] = [];
    let sent: Array<{ sql: string; params: unknown }> = [];
    await ctx.dataSource.transaction(async (manager) => {
      sent = await sentDuring(manager, () =>
        sendWritesTogether(manager, async () => {
          await writeBeforeCommit(manager, insert(2, 'two'));
          await writeLeadingBeforeCommit(manager, bump(1), async (rows) => {
            handed = rows;
            // Still in the transaction: the held writes are in, and what is written now is sent at once.
            const [{ c }] = await manager.query(`SELECT count(*)::int AS c FROM held_writes`);
            expect(c).toBe(2);
            await writeBeforeCommit(manager, insert(3, 'after'));
          });
          await writeBeforeCommit(
            manager,
            noTables.selectNoFrom(sql`pg_notify(${'held_writes'}, ${'x'})`.as('notified')),
          );
          expect(handed).toEqual([]);
        }),
      );
    });
    const statements = sent.filter((statement) => !/count\(\*\)::int/.test(statement.sql));
    expect(statements).toHaveLength(2);
    expect(statements[0].sql).toMatch(/^WITH lead AS \(update/);
    expect(statements[0].params).toEqual([1, 1, 2, 'two', 0, 'held_writes', 'x']);
    expect(handed).toEqual([{ id: 1, n: 1, label: 'led' }]);
    expect(await rows()).toEqual([
      { id: 1, label: 'led', n: 1 },
      { id: 2, label: 'two', n: 0 },
      { id: 3, label: 'after', n: 0 },
    ]);
  });

  it('rolls the leading write and the held writes back when what reads its rows refuses', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'led')`);
    await expect(
      ctx.dataSource.transaction((manager) =>
        sendWritesTogether(manager, async () => {
          await writeLeadingBeforeCommit(manager, bump(1), async (rows) => {
            if ((rows[0] as { n: number }).n > 0) throw new Error('short');
          });
          await writeBeforeCommit(manager, insert(2, 'two'));
        }),
      ),
    ).rejects.toThrow('short');
    expect(await rows()).toEqual([{ id: 1, label: 'led', n: 0 }]);
  });

  it('sends a leading write at once outside such a transaction', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'led')`);
    const handed: unknown[] = [];
    await ctx.dataSource.transaction(async (manager) => {
      await writeLeadingBeforeCommit(manager, bump(1), async (rows) => {
        handed.push(...rows);
      });
      expect(handed).toEqual([{ id: 1, n: 1, label: 'led' }]);
    });
    expect(await rows()).toEqual([{ id: 1, label: 'led', n: 1 }]);
  });

  it('sends several leading writes in the order held, each its rows handed on in that order', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'first'), (2, 'second')`);
    const handed: Array<[string, unknown[]]> = [];
    let sent: Array<{ sql: string; params: unknown }> = [];
    await ctx.dataSource.transaction(async (manager) => {
      sent = await sentDuring(manager, () =>
        sendWritesTogether(manager, async () => {
          await writeLeadingBeforeCommit(manager, bump(2), async (rows) => {
            handed.push(['second', rows]);
          });
          await writeBeforeCommit(manager, insert(3, 'three'));
          await writeLeadingBeforeCommit(manager, bump(1), async (rows) => {
            handed.push(['first', rows]);
          });
        }),
      );
    });
    expect(sent).toHaveLength(1);
    expect(sent[0].sql).toMatch(/^WITH lead AS \(update .*\), lead1 AS \(update .*\), w0 AS/);
    expect(handed).toEqual([
      ['second', [{ id: 2, n: 1, label: 'second' }]],
      ['first', [{ id: 1, n: 1, label: 'first' }]],
    ]);
    expect(await rows()).toEqual([
      { id: 1, label: 'first', n: 1 },
      { id: 2, label: 'second', n: 1 },
      { id: 3, label: 'three', n: 0 },
    ]);
  });

  it('stops at the first leading write whose reader refuses, rolling every write back', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'first'), (2, 'second')`);
    const called: number[] = [];
    await expect(
      ctx.dataSource.transaction((manager) =>
        sendWritesTogether(manager, async () => {
          await writeLeadingBeforeCommit(manager, bump(1), async () => {
            called.push(1);
            throw new Error('short');
          });
          await writeLeadingBeforeCommit(manager, bump(2), async () => {
            called.push(2);
          });
        }),
      ),
    ).rejects.toThrow('short');
    expect(called).toEqual([1]);
    expect(await rows()).toEqual([
      { id: 1, label: 'first', n: 0 },
      { id: 2, label: 'second', n: 0 },
    ]);
  });

  it('commits with the statement when every leading write is settled, and runs again with the readers when one is not', async () => {
    await ctx.sql(
      `INSERT INTO held_writes (id, label, n) VALUES (1, 'first', 0), (2, 'second', 5)`,
    );
    const bus = ctx.get(EventBus);
    /** Settled while every row the lead answered has n at most `max`. */
    const atMost = (max: number) =>
      noTables.selectNoFrom(sql<boolean>`(SELECT bool_and(n <= ${max}) FROM lead)`.as('settled'));
    const place = async (secondMax: number, heldId: number) => {
      const runs: string[] = [];
      await bus.transaction(async (tx) => {
        runs.push('run');
        await writeLeadingBeforeCommit(
          tx.manager,
          bump(1),
          async (rows) => void runs.push(`first ${(rows[0] as HeldWriteRow).n}`),
          atMost(10),
        );
        await writeLeadingBeforeCommit(
          tx.manager,
          bump(2),
          async (rows) => void runs.push(`second ${(rows[0] as HeldWriteRow).n}`),
          atMost(secondMax),
        );
        await writeBeforeCommit(tx.manager, insert(heldId, 'held'));
      });
      return runs;
    };
    // Both settled: one run, no reader called, committed by the statement.
    expect(await place(6, 11)).toEqual(['run']);
    // The second lead's check fails: the statement rolls back, and the run again hands the rows on.
    expect(await place(6, 12)).toEqual(['run', 'run', 'first 2', 'second 7']);
    expect(await rows()).toEqual([
      { id: 1, label: 'first', n: 2 },
      { id: 2, label: 'second', n: 7 },
      { id: 11, label: 'held', n: 0 },
      { id: 12, label: 'held', n: 0 },
    ]);
  });

  // Two transactions at once: the embedded database serves one connection.
  serverOnly('locks the leading write’s rows before any held write’s', async () => {
    await ctx.sql(`INSERT INTO held_writes (id, label) VALUES (1, 'led'), (2, 'held')`);
    const blocker = ctx.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    try {
      // Another transaction holds the held write's row.
      await blocker.query(`SELECT id FROM held_writes WHERE id = 2 FOR UPDATE`);
      const writing = ctx.dataSource.transaction((manager) =>
        sendWritesTogether(manager, async () => {
          await writeBeforeCommit(
            manager,
            db.updateTable('heldWrites').set({ label: 'changed' }).where('id', '=', 2),
          );
          await writeLeadingBeforeCommit(manager, bump(1), async () => {});
        }),
      );
      // While the statement waits for row 2, it already holds the leading write's row 1.
      let locked = false;
      for (let attempt = 0; attempt < 100 && !locked; attempt++) {
        // On a connection of its own, outside any transaction: its lock lasts its statement.
        const probe = await ctx.sql(
          `SELECT id FROM held_writes WHERE id = 1 FOR UPDATE SKIP LOCKED`,
        );
        locked = probe.length === 0;
        if (!locked) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(locked).toBe(true);
      await blocker.commitTransaction();
      await writing;
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }
    expect(await rows()).toEqual([
      { id: 1, label: 'led', n: 1 },
      { id: 2, label: 'changed', n: 0 },
    ]);
  });
});
