import { Socket } from 'node:net';
import { Client, Pool } from 'pg';
import { EntityManager } from 'typeorm';
import { PipelinedClient } from '../../src/database/pipelined-client';
import { EventBus } from '../../src/database/event-bus';
import { queryBuilder } from '../../src/database/query-builder';
import { writeBeforeCommit, writeLastBeforeCommit } from '../../src/database/writes-before-commit';
import { EmbeddedPostgres } from '../../src/database/embedded/embedded-postgres';
import { createTestDatabase, TestDatabase } from '../support/database';
import { createMediumContext, MediumContext } from '../support/medium';
import { TcpProxy } from '../support/tcp-proxy';

interface ProbeRow {
  id: number;
  label: string;
  timesSeen: number;
}
const db = queryBuilder<{ pipelinedProbe: ProbeRow }>();

/** The pg client of the connection `manager`'s transaction holds. */
function transactionClient(manager: EntityManager): unknown {
  return (manager.queryRunner as unknown as { databaseConnection: unknown }).databaseConnection;
}

/** That connection's socket. */
function transactionStream(manager: EntityManager): unknown {
  return (transactionClient(manager) as { connection: { stream: unknown } }).connection.stream;
}

/** The socket writes of the connection `manager`'s transaction holds (connected by a first statement). */
function socketWrites(manager: EntityManager) {
  const stream = transactionStream(manager) as Record<string, unknown>;
  let count = 0;
  const wrapped = ['_write', '_writev'].map((method) => {
    const original = stream[method] as (...args: unknown[]) => unknown;
    stream[method] = function (this: unknown, ...args: unknown[]) {
      count++;
      return original.apply(this, args);
    };
    return () => delete stream[method];
  });
  return {
    get count() {
      return count;
    },
    restore: () => wrapped.forEach((unwrap) => unwrap()),
  };
}

/**
 * Statements one transaction issues together leave in one socket write (the
 * pool's client pipelines them), and a write held as a transaction's last
 * statement carries its COMMIT.
 */
describe('statements sent together (medium)', () => {
  let ctx: MediumContext;
  let bus: EventBus;

  beforeAll(async () => {
    ctx = await createMediumContext();
    bus = ctx.get(EventBus);
    await ctx.sql(
      `CREATE TABLE pipelined_probe (id int PRIMARY KEY, label text NOT NULL, times_seen int NOT NULL DEFAULT 0)`,
    );
  });
  afterAll(() => ctx?.close());
  beforeEach(() => ctx.sql('DELETE FROM pipelined_probe'));

  const rows = () => ctx.sql(`SELECT id, label, times_seen FROM pipelined_probe ORDER BY id`);
  const insert = (id: number, label: string) =>
    db.insertInto('pipelinedProbe').values({ id, label, timesSeen: 0 });
  const seen = (id: number) =>
    db
      .updateTable('pipelinedProbe')
      .set((eb) => ({ timesSeen: eb('timesSeen', '+', 1) }))
      .where('id', '=', id)
      .returning(['id', 'timesSeen']);

  it('sends what a transaction issues together in one socket write, and answers each its own rows', async () => {
    let together = 0;
    let oneByOne = 0;
    const answers = await bus.transaction(async (tx) => {
      await tx.manager.query(
        `INSERT INTO pipelined_probe (id, label) VALUES (1, 'one'), (2, 'two')`,
      );
      const writes = socketWrites(tx.manager);
      try {
        const both = await Promise.all([
          tx.manager.query(`SELECT label FROM pipelined_probe WHERE id = $1 FOR UPDATE`, [1]),
          tx.manager.query(`SELECT label, $2::text AS tag FROM pipelined_probe WHERE id = $1`, [
            2,
            'second',
          ]),
        ]);
        together = writes.count;
        await tx.manager.query(`SELECT 1 FROM pipelined_probe WHERE id = $1`, [1]);
        await tx.manager.query(`SELECT 1 FROM pipelined_probe WHERE id = $1`, [2]);
        oneByOne = writes.count - together;
        return both;
      } finally {
        writes.restore();
      }
    });
    expect(together).toBe(1);
    expect(oneByOne).toBe(2);
    expect(answers).toEqual([[{ label: 'one' }], [{ label: 'two', tag: 'second' }]]);
  });

  it('sends the first statements a transaction issues together in its BEGIN’s write, each inside the transaction', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (2, 'two')`);
    // A transaction first, so that the pool holds a connection already set up.
    await bus.transaction((tx) => tx.manager.query(`SELECT 1`));
    const sockets = Socket.prototype as unknown as Record<string, () => void>;
    let writes = -1;
    let sent: unknown[] = [];
    const failed = bus.transaction(async (tx) => {
      const spies = ['_write', '_writev'].map((method) => jest.spyOn(sockets, method));
      const queries = jest.spyOn(Client.prototype, 'query');
      try {
        const [inserted, updated] = await Promise.all([
          tx.manager.query(
            `INSERT INTO pipelined_probe (id, label) VALUES (1, 'one') RETURNING id`,
          ),
          tx.manager.query(
            `UPDATE pipelined_probe SET times_seen = times_seen + 1 WHERE id = $1 RETURNING times_seen`,
            [2],
          ),
        ]);
        expect([inserted, updated]).toEqual([[{ id: 1 }], [[{ times_seen: 1 }], 1]]);
        // Only this transaction's socket and client count: a log line or another
        // connection of the process may write meanwhile.
        const stream = transactionStream(tx.manager);
        writes = spies.reduce(
          (sum, spy) => sum + spy.mock.contexts.filter((socket) => socket === stream).length,
          0,
        );
        const client = transactionClient(tx.manager);
        sent = queries.mock.calls
          .filter((_, call) => queries.mock.contexts[call] === client)
          .map(([query]) => query as unknown);
      } finally {
        spies.forEach((spy) => spy.mockRestore());
        queries.mockRestore();
      }
      throw new Error('rolled back on purpose');
    });
    await expect(failed).rejects.toThrow('rolled back on purpose');
    expect(writes).toBe(1);
    // The first statement sent carries the BEGIN; the second follows it in the same write.
    expect(sent).toHaveLength(2);
    expect((sent[0] as { around?: { begin?: boolean } }).around?.begin).toBe(true);
    // Both ran inside the transaction: its rollback undid both.
    expect(await rows()).toEqual([{ id: 2, label: 'two', times_seen: 0 }]);
  });

  it('fails the transaction when one of the statements sent together fails, and stores nothing', async () => {
    await expect(
      bus.transaction(async (tx) => {
        await tx.manager.query(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
        await Promise.all([
          tx.manager.query(`INSERT INTO pipelined_probe (id, label) VALUES ($1, 'again')`, [1]),
          tx.manager.query(`INSERT INTO pipelined_probe (id, label) VALUES ($1, 'three')`, [3]),
        ]);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await rows()).toEqual([]);
    // The connection went back to the pool out of the failed transaction: the next one works.
    await bus.transaction((tx) => tx.manager.query(`INSERT INTO pipelined_probe VALUES (4, 'x')`));
    expect(await rows()).toEqual([{ id: 4, label: 'x', times_seen: 0 }]);
  });

  /** COMMITs sent alone, and statements that carried theirs, while `work` runs. */
  async function commitsDuring(work: () => Promise<unknown>) {
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      await work();
      const sent = spy.mock.calls.map(([query]) => query as unknown);
      return {
        alone: sent.filter((query) => query === 'COMMIT').length,
        carried: sent.filter(
          (query) => (query as { around?: { commit?: boolean } })?.around?.commit === true,
        ).length,
      };
    } finally {
      spy.mockRestore();
    }
  }

  it('sends a held last write after the other held writes, with the COMMIT, and hands its rows on', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
    const recorded: unknown[] = [];
    const order: string[] = [];
    const sent = await commitsDuring(() =>
      bus.transaction(async (tx) => {
        await writeLastBeforeCommit(tx.manager, seen(1), (rows) => {
          order.push('recorded');
          recorded.push(...rows);
        });
        await writeBeforeCommit(tx.manager, insert(2, 'held'));
        // Held: the work does not see it yet.
        const [row] = await tx.manager.query(`SELECT times_seen FROM pipelined_probe WHERE id = 1`);
        expect(row.times_seen).toBe(0);
        tx.afterCommit(() => void order.push('committed'));
      }),
    );
    expect(sent).toEqual({ alone: 0, carried: 1 });
    expect(recorded).toEqual([{ id: 1, timesSeen: 1 }]);
    expect(order).toEqual(['recorded', 'committed']);
    expect(await rows()).toEqual([
      { id: 1, label: 'one', times_seen: 1 },
      { id: 2, label: 'held', times_seen: 0 },
    ]);
  });

  it('sends the held writes, the last write and the COMMIT in one socket write, the last seeing what the held wrote', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
    const recorded: unknown[] = [];
    let written = -1;
    await bus.transaction(async (tx) => {
      await tx.manager.query(`SELECT 1 FROM pipelined_probe WHERE id = $1`, [1]);
      const writes = socketWrites(tx.manager);
      try {
        await writeBeforeCommit(tx.manager, insert(2, 'held'));
        await writeBeforeCommit(tx.manager, seen(1));
        // The last write reads the row a held write inserted, in the same round trip.
        await writeLastBeforeCommit(
          tx.manager,
          db
            .updateTable('pipelinedProbe')
            .set({ label: 'seen by the last' })
            .where('id', '=', 2)
            .returning(['id', 'label']),
          (rows) => recorded.push(...rows),
        );
        tx.afterCommit(() => {
          written = writes.count;
          writes.restore();
        });
      } catch (error) {
        writes.restore();
        throw error;
      }
    });
    expect({ written, recorded, stored: await rows() }).toEqual({
      written: 1,
      recorded: [{ id: 2, label: 'seen by the last' }],
      stored: [
        { id: 1, label: 'one', times_seen: 1 },
        { id: 2, label: 'seen by the last', times_seen: 0 },
      ],
    });
  });

  it('sends the last write without the COMMIT when a step is asked for, and runs the step after it', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
    const order: string[] = [];
    const sent = await commitsDuring(() =>
      bus.transaction(async (tx) => {
        await writeLastBeforeCommit(tx.manager, seen(1), () => void order.push('recorded'));
        tx.beforeCommit(async () => {
          const [row] = await tx.manager.query(`SELECT times_seen FROM pipelined_probe`);
          order.push(`step saw ${row.times_seen}`);
        });
      }),
    );
    expect(sent).toEqual({ alone: 1, carried: 0 });
    expect(order).toEqual(['recorded', 'step saw 1']);
    expect(await rows()).toEqual([{ id: 1, label: 'one', times_seen: 1 }]);
  });

  it('rolls everything back when the last write or a held write sent with it fails, and records nothing', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
    const recorded: unknown[] = [];
    // 1 is taken: the last statement breaks the primary key, then a held write in front of it does.
    for (const failing of ['last', 'held'] as const) {
      await expect(
        bus.transaction(async (tx) => {
          await writeBeforeCommit(tx.manager, insert(failing === 'held' ? 1 : 2, 'held'));
          await writeLastBeforeCommit(
            tx.manager,
            insert(failing === 'last' ? 1 : 3, 'again').returning('id'),
            (rows) => recorded.push(...rows),
          );
        }),
      ).rejects.toThrow(/duplicate key/);
    }
    expect(recorded).toEqual([]);
    expect(await rows()).toEqual([{ id: 1, label: 'one', times_seen: 0 }]);
    // The connection went back to the pool out of the failed transactions: the next one works.
    await bus.transaction((tx) => tx.manager.query(`INSERT INTO pipelined_probe VALUES (4, 'x')`));
    expect(await rows()).toHaveLength(2);
  });

  it('sends a last write at once outside such a transaction, and refuses a second one', async () => {
    await ctx.sql(`INSERT INTO pipelined_probe (id, label) VALUES (1, 'one')`);
    const recorded: unknown[] = [];
    await writeLastBeforeCommit(ctx.dataSource.manager, seen(1), (rows) => recorded.push(...rows));
    expect(recorded).toEqual([{ id: 1, timesSeen: 1 }]);
    await expect(
      bus.transaction(async (tx) => {
        await writeLastBeforeCommit(tx.manager, seen(1), () => undefined);
        await writeLastBeforeCommit(tx.manager, seen(1), () => undefined);
      }),
    ).rejects.toThrow('one last write at most');
    expect(await rows()).toEqual([{ id: 1, label: 'one', times_seen: 1 }]);
  });
});

describe('a connection cut while the pool’s client sets it up (medium)', () => {
  // No service here: the embedded database takes one connection at a time.
  let database: TestDatabase;
  let embedded: EmbeddedPostgres | undefined;
  /** Where the test database listens, as pg's connection settings. */
  let to: { host: string; port: number; user: string; database: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = database.env.DATABASE_URL;
    if (url) {
      const parsed = new URL(url);
      to = {
        host: parsed.hostname,
        port: Number(parsed.port || 5432),
        user: decodeURIComponent(parsed.username),
        database: parsed.pathname.slice(1),
      };
    } else {
      embedded = new EmbeddedPostgres(database.env.DATA_DIR);
      to = await embedded.start();
    }
  });
  afterAll(async () => {
    await embedded?.stop();
    await database?.drop();
  });

  it('fails the pool’s connect with the loss, not the process, and a new connection is set up in full', async () => {
    const relay = new TcpProxy(to, 'plan_cache_mode');
    await relay.start();
    const cut = new Pool({
      ...to,
      host: '127.0.0.1',
      port: relay.port,
      Client: PipelinedClient,
      max: 1,
    });
    try {
      // Without a listener for the client's `error` event, pg's event would end the test run here.
      await expect(cut.connect()).rejects.toThrow(/Connection terminated unexpectedly/);
      expect(relay.cuts).toBe(1);
      expect(cut.totalCount).toBe(0);
    } finally {
      await cut.end();
      await relay.stop();
    }

    // The connection after the cut is a new one, set up in full. (The
    // embedded database's socket server refuses new connections for a while
    // after a client's connection is cut; the service's own connections to
    // it are local and are not cut that way.)
    if (embedded) return;
    const direct = new Pool({ ...to, Client: PipelinedClient, max: 1 });
    try {
      const [{ plan_cache_mode }] = (await direct.query('SHOW plan_cache_mode')).rows;
      expect(plan_cache_mode).toBe('force_custom_plan');
    } finally {
      await direct.end();
    }
  });
});
