import { preparedQuery } from './prepared-query';
import { noTables, sql } from './query-builder';

describe('preparedQuery', () => {
  it('builds once a shape and binds each run its own values, constants kept', () => {
    let builds = 0;
    const query = preparedQuery(({ a, b }: { a: number; b?: string }) => {
      builds++;
      return noTables.selectNoFrom([
        sql<number>`${a}`.as('a'),
        sql<number>`${7}`.as('seven'),
        ...(b === undefined ? [] : [sql<string>`${b}`.as('b')]),
      ]);
    });
    expect(query({ a: 1 }).compile().parameters).toEqual([1, 7]);
    expect(query({ a: 2 }).compile().parameters).toEqual([2, 7]);
    expect(builds).toBe(1);
    const withB = query({ a: 3, b: 'x' }).compile();
    expect(withB.parameters).toEqual([3, 7, 'x']);
    expect(withB.sql).toBe('select $1 as "a", $2 as "seven", $3 as "b"');
    expect(builds).toBe(2);
  });

  it('keeps at most 64 shapes; a query of another shape past them is built each time', () => {
    let builds = 0;
    const query = preparedQuery(
      ({ row }: { row: Record<string, number> }) => {
        builds++;
        return noTables.selectNoFrom(
          Object.entries(row).map(([key, value]) => sql<number>`${value}`.as(key)),
        );
      },
      { expand: ['row'] },
    );
    for (let i = 0; i < 64; i++) query({ row: { [`k${i}`]: i } });
    expect(builds).toBe(64);
    expect(query({ row: { k3: 30 } }).compile().parameters).toEqual([30]);
    expect(builds).toBe(64);
    expect(query({ row: { extra: 1 } }).compile().parameters).toEqual([1]);
    expect(query({ row: { extra: 2 } }).compile().parameters).toEqual([2]);
    expect(builds).toBe(66);
  });

  it('refuses a value made into text while the query is built (it would be compiled in once)', () => {
    const query = preparedQuery(({ id }: { id: string }) =>
      noTables.selectNoFrom(sql<string>`${`order:${id}`}`.as('key')),
    );
    expect(() => query({ id: 'a' })).toThrow(/used as text or a number/);
  });

  it('refuses SQL passed as a value', () => {
    const query = preparedQuery(({ at }: { at: unknown }) =>
      noTables.selectNoFrom(sql`${at}`.as('at')),
    );
    expect(() => query({ at: sql`now()` })).toThrow(/is SQL; build it inside the query/);
  });

  it('refuses text whose placeholders it cannot tell from the rest', () => {
    const query = preparedQuery(({ v }: { v: number }) =>
      noTables.selectNoFrom([sql.raw<string>(`'$2'`).as('text'), sql<number>`${v}`.as('v')]),
    );
    expect(() => query({ v: 1 })).toThrow(/numbers its parameters in order/);
  });
});
