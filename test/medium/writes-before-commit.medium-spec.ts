import { EntityManager } from 'typeorm';
import { queryBuilder, noTables, sql } from '../../src/database/query-builder';
import { sendWritesTogether, writeBeforeCommit } from '../../src/database/writes-before-commit';
import { createMediumContext, MediumContext } from '../support/medium';

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
});
