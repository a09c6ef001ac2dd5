import {
  Compilable,
  CompiledQuery,
  DummyDriver,
  Generated,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  RawBuilder,
  sql,
} from 'kysely';
import type { EntityManager } from 'typeorm';
import { Bound } from './prepared-query';

/*
 * SQL of the service is written with Kysely, typed against the tables it
 * touches, and compiled here without a pool: it runs through the caller's
 * TypeORM EntityManager, so a query joins the caller's transaction and the
 * embedded database keeps its single connection. TypeORM keeps the
 * connection, the migrations and the entity classes that define each table.
 *
 * One definition per table: the entity class (its decorators give the
 * schema the migrations are checked against, its property types give the
 * row), and `Table<Entity, …>` makes Kysely's table type of it. Columns are
 * snake_case in the database and camelCase in code; the compiler writes
 * every identifier of a query in snake_case and `fetchAll` maps the keys of
 * every row, so the row comes back as the entity's shape. A test holds every
 * entity to that naming rule.
 */

/**
 * Kysely's type of a table whose rows are `Row` (an entity class): the
 * columns in `Defaulted` are filled in by the database (a generated key, a
 * default) and may be left out of an insert.
 */
export type Table<Row, Defaulted extends keyof Row = never> = {
  [K in keyof Row]-?: K extends Defaulted ? Generated<Row[K]> : Row[K];
};

const snakeNames = new Map<string, string>();

/**
 * The snake_case form of an identifier written in camelCase (`orderUuid` →
 * `order_uuid`, `lineTotal2` → `line_total2`; a run of capitals is one word),
 * as Kysely's CamelCasePlugin writes it with its default options.
 */
export function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = toSnake(name);
    snakeNames.set(name, snake);
  }
  return snake;
}

function toSnake(name: string): string {
  if (name === '') return name;
  let out = name[0].toLowerCase();
  for (let i = 1; i < name.length; i++) {
    const char = name[i];
    const upper = char.toUpperCase();
    const lower = char.toLowerCase();
    if (char === upper && upper !== lower) {
      const prev = name[i - 1];
      const prevIsUpper = prev === prev.toUpperCase() && prev.toUpperCase() !== prev.toLowerCase();
      out += prevIsUpper ? lower : `_${lower}`;
    } else {
      out += char;
    }
  }
  return out;
}

/**
 * PostgreSQL's compiler writing identifiers in snake_case as it writes them:
 * what the CamelCasePlugin does by copying every query's tree before it is
 * compiled, at about a third of the cost of building and compiling a query,
 * which placement pays some twenty times an order.
 */
class SnakeCaseQueryCompiler extends PostgresQueryCompiler {
  protected override sanitizeIdentifier(identifier: string): string {
    return super.sanitizeIdentifier(snakeCase(identifier));
  }
}

/**
 * A builder for the tables `Tables` (table name in camelCase → `Table<…>`)
 * that only compiles; run its queries with `fetchAll`, `fetchOne` and
 * `execute`. Build one per repository, typed with the tables it may touch.
 */
export function queryBuilder<Tables>(): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new SnakeCaseQueryCompiler(),
    },
  });
}

/** Builds statements that name no table of a module (`SELECT pg_notify(…)`, raw `sql`). */
export const noTables = queryBuilder<Record<string, never>>();

/** The SQL text and parameters of a query, as PostgreSQL receives them. */
export function compile<O>(query: Compilable<O>): CompiledQuery<O> {
  return query.compile();
}

/** Compiles a raw `sql` fragment (for statements no typed table describes). */
export function compileRaw<O>(fragment: RawBuilder<O>): CompiledQuery<O> {
  return fragment.compile(noTables);
}

const camelKeys = new Map<string, string>();

/** The camelCase form of a snake_case column name, as the CamelCasePlugin writes it. */
function camel(key: string): string {
  let name = camelKeys.get(key);
  if (name === undefined) {
    name = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelKeys.set(key, name);
  }
  return name;
}

/** A row's columns in camelCase; the values (jsonb documents included) are left as they are. */
export function toCamel(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row) out[camel(key)] = row[key];
  return out;
}

/** What TypeORM's `query` answers: rows, or `[rows, affected]` for UPDATE and DELETE. */
function rowsOf(raw: unknown, kind: string | undefined): Record<string, unknown>[] {
  if ((kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') && Array.isArray(raw)) {
    return Array.isArray(raw[0]) ? (raw[0] as Record<string, unknown>[]) : [];
  }
  return Array.isArray(raw) ? (raw as Record<string, unknown>[]) : [];
}

async function run<O>(manager: EntityManager, compiled: CompiledQuery<O>): Promise<O[]> {
  const raw: unknown = await manager.query(compiled.sql, compiled.parameters as unknown[]);
  return rowsOf(raw, compiled.query?.kind).map(toCamel) as O[];
}

/** Runs `query` through `manager` and answers every row it returns, keys in camelCase. */
export function fetchAll<O>(
  manager: EntityManager,
  query: Compilable<O> | CompiledQuery<O>,
): Promise<O[]> {
  return run(manager, 'compile' in query ? query.compile() : query);
}

/** The first row `query` returns, or undefined. */
export async function fetchOne<O>(
  manager: EntityManager,
  query: Compilable<O> | CompiledQuery<O>,
): Promise<O | undefined> {
  const rows = await fetchAll(manager, query);
  return rows[0];
}

/**
 * Runs SQL text a repository composed itself (placeholders numbered by a
 * parameter list, never by hand) and answers its rows as the database names
 * the columns. TypeORM answers UPDATE and DELETE with `[rows, affected]`;
 * this answers their rows alike.
 */
export async function fetchRawRows<R = Record<string, unknown>>(
  manager: EntityManager,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  const raw: unknown = await manager.query(text, [...params]);
  const changes = /^\s*(UPDATE|DELETE)\b/i.test(text);
  return rowsOf(raw, changes ? 'UpdateQueryNode' : undefined) as R[];
}

/**
 * Runs a statement whose rows are not read; answers the rows it changed
 * (UPDATE and DELETE), else 0.
 */
export async function execute(
  manager: EntityManager,
  query: Compilable<unknown> | CompiledQuery<unknown>,
): Promise<number> {
  const compiled = 'compile' in query ? query.compile() : query;
  const raw: unknown = await manager.query(compiled.sql, compiled.parameters as unknown[]);
  const kind = compiled.query?.kind;
  if ((kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode') && Array.isArray(raw)) {
    return typeof raw[1] === 'number' ? raw[1] : 0;
  }
  return 0;
}

/**
 * A jsonb value as a parameter. The pg driver would send a JavaScript array
 * as a PostgreSQL array, so documents are sent as their JSON text (in a
 * prepared query too, where `value` is a stand-in).
 */
export function jsonb<T>(value: T): RawBuilder<T> {
  if (value instanceof Bound) return sql<T>`${value.map(jsonText)}::jsonb`;
  return value === null || value === undefined
    ? sql<T>`NULL::jsonb`
    : sql<T>`${JSON.stringify(value)}::jsonb`;
}

/**
 * Rows as a table for `INSERT … SELECT` and joins: `unnest` of one typed
 * array per column (one parameter per column however many rows), aliased
 * `alias` with the columns of `types`, in the order `types` names them. A
 * column's type is a PostgreSQL type name (`uuid`, `int`, `numeric`,
 * `jsonb`, …); jsonb values are sent as their JSON text. In a prepared
 * query, `rows` may be the stand-in of the whole list.
 */
export function rowsTable<R extends Record<string, unknown>, A extends string>(
  rows: readonly R[],
  types: { readonly [K in keyof R & string]: string },
  alias: A,
) {
  const columns = Object.keys(types) as Array<keyof R & string>;
  const arrays = columns.map((column) => {
    const type = types[column];
    const valuesOf = (all: readonly R[]) =>
      all.map((row) => (type === 'jsonb' ? jsonText(row[column]) : row[column]));
    const values =
      rows instanceof Bound
        ? (rows as Bound).map((all) => valuesOf(all as readonly R[]))
        : valuesOf(rows);
    return sql`${values}::${sql.raw(type)}[]`;
  });
  const names = columns.map((column) => sql.ref(column));
  return sql<R>`unnest(${sql.join(arrays)})`.as<A>(sql`${sql.ref(alias)}(${sql.join(names)})`);
}

/** A document's JSON text as a parameter (null stays null). */
function jsonText(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export { sql };
