import {
  Compilable,
  CompiledQuery,
  OperationNode,
  OperationNodeSource,
  RawNode,
  ValueNode,
} from 'kysely';

/*
 * Building a Kysely query and compiling it costs far more than the SQL text
 * it makes: every step copies and freezes the query's tree, then the
 * compiler walks it. On the hottest paths (an order's placement) that was a
 * tenth of the service's time for statements whose text never changes. A
 * prepared query is built and compiled once for each shape of its
 * arguments, with a stand-in for every value; each run binds the values.
 */

/**
 * A stand-in for one value of a prepared query's arguments: Kysely sends it
 * as a parameter, and each run binds what `read` answers of that run's
 * arguments.
 */
export class Bound {
  constructor(readonly read: (args: unknown) => unknown) {}

  /** The same value bound as `convert` makes it (a document as its JSON text). */
  map(convert: (value: unknown) => unknown): Bound {
    return new Bound((args) => convert(this.read(args)));
  }

  /** A stand-in made into text or a number would be compiled in once: refused at once. */
  [Symbol.toPrimitive](): never {
    throw new Error(
      "A prepared query's value was used as text or a number while it was built; use `map`.",
    );
  }
}

/** The shapes of one prepared query kept at most. */
const MAX_SHAPES = 64;

export interface PreparedOptions {
  /**
   * The paths of the arguments that are records of values rather than
   * values (`order`, `order.price`): their keys get stand-ins of their own,
   * so the query may spread them or read their fields. The arguments
   * themselves are always such a record. Any other object (a document, a
   * list of rows) is one value.
   */
  expand?: readonly string[];
}

/**
 * A query built and compiled once for each shape of its arguments (which
 * keys of the expanded records are present), then only bound.
 *
 * `build` gets stand-ins, not values, so it must use each argument only as
 * a value of the query: pass it to Kysely, `jsonb`, `rowsTable` or
 * `transactionLock`, never branch on it, compute with it or call anything
 * that answers a new value each time (a random reference, the clock): such
 * a value would be compiled in once and repeated. A value that changes the
 * query's shape belongs in an expanded record, left out when absent.
 */
export function preparedQuery<A extends object, O>(
  build: (args: A) => Compilable<O>,
  options: PreparedOptions = {},
): (args: A) => PreparedRun<O> {
  const expand = new Set(['', ...(options.expand ?? [])]);
  const templates = new Map<string, Template<O>>();
  return (args) => {
    const shape = shapeOf(args, '', expand);
    let template = templates.get(shape);
    if (template === undefined) {
      template = templateOf(build(standIn(args, '', expand, (whole) => whole) as A).compile());
      // Shapes come from the code's own records; past a few dozen, something
      // passes keys of its own, and its queries are built each time instead.
      if (templates.size < MAX_SHAPES) templates.set(shape, template);
    }
    return new PreparedRun(template, args);
  };
}

/** A compiled query whose parameters are stand-ins, and its text cut at each placeholder. */
interface Template<O> {
  compiled: CompiledQuery<O>;
  /** The text around the placeholders: `$1` … `$n` lie between them, in order. */
  fragments: string[];
}

function templateOf<O>(compiled: CompiledQuery<O>): Template<O> {
  const fragments: string[] = [];
  let from = 0;
  let next = 1;
  for (const match of compiled.sql.matchAll(/\$(\d+)/g)) {
    if (Number(match[1]) !== next) {
      throw new Error(`A prepared query numbers its parameters in order: ${compiled.sql}`);
    }
    fragments.push(compiled.sql.slice(from, match.index));
    from = match.index! + match[0].length;
    next++;
  }
  fragments.push(compiled.sql.slice(from));
  if (next - 1 !== compiled.parameters.length) {
    throw new Error(`A prepared query's placeholders and parameters differ: ${compiled.sql}`);
  }
  return { compiled, fragments };
}

/**
 * One run of a prepared query: compiled, it is the query's text with this
 * run's values; as part of another query (a held write sent with others), it
 * is that text with its values as parameters of the whole.
 */
export class PreparedRun<O> implements Compilable<O>, OperationNodeSource {
  private readonly values: unknown[];

  constructor(
    private readonly template: Template<O>,
    args: unknown,
  ) {
    this.values = template.compiled.parameters.map((parameter) =>
      parameter instanceof Bound ? parameter.read(args) : parameter,
    );
  }

  /** The kind of the query as built (`InsertQueryNode`, `SelectQueryNode`, …). */
  get kind(): string {
    return this.template.compiled.query.kind;
  }

  compile(): CompiledQuery<O> {
    return { ...this.template.compiled, parameters: this.values };
  }

  toOperationNode(): OperationNode {
    return RawNode.create(
      this.template.fragments,
      this.values.map((value) => ValueNode.create(value)),
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function isOperationNodeSource(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<OperationNodeSource>).toOperationNode === 'function'
  );
}

function pathOf(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** The keys present in each expanded record, in order: what the built query depends on. */
function shapeOf(value: unknown, path: string, expand: ReadonlySet<string>): string {
  if (!expand.has(path) || !isRecord(value)) return '';
  let shape = '{';
  for (const key in value) {
    if (value[key] === undefined) continue;
    shape += `${key}${shapeOf(value[key], pathOf(path, key), expand)},`;
  }
  return `${shape}}`;
}

function standIn(
  value: unknown,
  path: string,
  expand: ReadonlySet<string>,
  read: (args: unknown) => unknown,
): unknown {
  if (isOperationNodeSource(value)) {
    throw new Error(`The value ${path} of a prepared query is SQL; build it inside the query.`);
  }
  if (!expand.has(path) || !isRecord(value)) return new Bound(read);
  const record: Record<string, unknown> = {};
  for (const key in value) {
    if (value[key] === undefined) continue;
    record[key] = standIn(
      value[key],
      pathOf(path, key),
      expand,
      (args) => (read(args) as Record<string, unknown>)[key],
    );
  }
  return record;
}
