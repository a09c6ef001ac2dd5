import { QueryRunner } from 'typeorm';
import { EventBus } from '../../src/database/event-bus';
import { createMediumContext, MediumContext } from '../support/medium';

interface Prepared {
  name: string;
  statement: string;
  runs: string;
}

/**
 * Statements sent again go as named prepared statements: parsed once per
 * connection, then only bound. One connection (a pool of one) so that what
 * a statement left prepared is seen by the next.
 */
describe('named statements (medium)', () => {
  let ctx: MediumContext;
  let bus: EventBus;

  beforeAll(async () => {
    ctx = await createMediumContext({}, { DATABASE_POOL_SIZE: '1' });
    bus = ctx.get(EventBus);
    await ctx.sql(`CREATE TABLE named_probe (id int PRIMARY KEY, label text NOT NULL)`);
    await ctx.sql(`INSERT INTO named_probe SELECT g, 'row ' || g FROM generate_series(1, 20) g`);
  });
  afterAll(() => ctx?.close());

  const prepared = async (runner: QueryRunner, like: string): Promise<Prepared[]> =>
    (await runner.query(
      `SELECT name, statement, (generic_plans + custom_plans)::text AS runs
         FROM pg_prepared_statements WHERE statement LIKE $1`,
      [like],
    )) as Prepared[];

  it('names a text sent with parameters from its second time on, and answers each run’s values', async () => {
    const runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const text = `SELECT label FROM named_probe WHERE id = $1 /* probe one */`;
      const labels: string[] = [];
      for (let id = 1; id <= 9; id++) {
        const [row] = (await runner.query(text, [id])) as Array<{ label: string }>;
        labels.push(row.label);
      }
      expect(labels).toEqual(Array.from({ length: 9 }, (_, i) => `row ${i + 1}`));
      const [statement] = await prepared(runner, '%probe one%');
      expect(statement.statement).toBe(text);
      // Parsed once, run eight times under its name (past the runs planned for their values).
      expect(Number(statement.runs)).toBe(8);
    } finally {
      await runner.release();
    }
  });

  it('sends a text without parameters as it is, unnamed', async () => {
    const runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
    try {
      for (let i = 0; i < 3; i++) await runner.query(`SELECT count(*) FROM named_probe /* bare */`);
      expect(await prepared(runner, '%bare%')).toEqual([]);
    } finally {
      await runner.release();
    }
  });

  it('prepares a transaction’s first statement after a Parse that failed, not before', async () => {
    // The first statement of a bus transaction carries its BEGIN. A Parse that
    // fails (no such table yet) must not leave the name taken for prepared.
    const text = `SELECT label FROM named_later WHERE id = $1`;
    const read = () => bus.transaction((tx) => tx.manager.query(text, [1]));
    for (let i = 0; i < 3; i++) {
      await expect(read()).rejects.toThrow('relation "named_later" does not exist');
    }
    await ctx.sql(`CREATE TABLE named_later (id int PRIMARY KEY, label text NOT NULL)`);
    await ctx.sql(`INSERT INTO named_later VALUES (1, 'later')`);
    expect(await read()).toEqual([{ label: 'later' }]);
    expect(await read()).toEqual([{ label: 'later' }]);
    const runner = ctx.dataSource.createQueryRunner();
    try {
      const [statement] = await prepared(runner, '%named_later%');
      expect(statement.statement).toBe(text);
    } finally {
      await runner.release();
    }
  });

  it('plans every run for the table as it stands: a lookup planned on a few rows uses the index once the table grows', async () => {
    await ctx.sql(`CREATE TABLE named_growing (id int PRIMARY KEY, label text NOT NULL)`);
    await ctx.sql(`INSERT INTO named_growing VALUES (1, 'one'), (2, 'two')`);
    const runner = ctx.dataSource.createQueryRunner();
    await runner.connect();
    try {
      expect(await runner.query(`SHOW plan_cache_mode`)).toEqual([
        { plan_cache_mode: 'force_custom_plan' },
      ]);
      const text = `SELECT label FROM named_growing WHERE id = $1`;
      // Past the runs PostgreSQL plans for their values before it may keep one plan.
      for (let i = 0; i < 8; i++) await runner.query(text, [1 + (i % 2)]);
      await runner.query(
        `INSERT INTO named_growing SELECT g, 'row ' || g FROM generate_series(3, 20000) g`,
      );
      expect(await runner.query(text, [12345])).toEqual([{ label: 'row 12345' }]);
      const [plans] = (await runner.query(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom
           FROM pg_prepared_statements WHERE statement = $1`,
        [text],
      )) as Array<{ generic: number; custom: number }>;
      expect(plans).toEqual({ generic: 0, custom: 8 });
      const [plan] = (await runner.query(`EXPLAIN ${text.replace('$1', '12345')}`)) as Array<{
        'QUERY PLAN': string;
      }>;
      expect(plan['QUERY PLAN']).toMatch(/Index/);
    } finally {
      await runner.release();
    }
  });
});
