import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { oddString, unstorable, weirdValue } from './fuzz-values';

/**
 * The fuzz suite's requests: every operation of the published OpenAPI
 * document, and fast-check arbitraries that build a request from the
 * operation's own parameters and body schema and then break it (see
 * fuzz-suite.ts).
 */
export const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
export const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
export const REPLAY_PATH = process.env.FUZZ_PATH;

type Schema = Record<string, any>;

export interface Operation {
  id: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  body: Schema | undefined;
  needsBearer: boolean;
  mayBearer: boolean;
}

const DOCUMENT = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
};

export function operations(): Operation[] {
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(DOCUMENT.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const security: Array<Record<string, unknown>> = op.security ?? [];
      const json = op.requestBody?.content?.['application/json']?.schema;
      list.push({
        id: op.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: json ?? (op.requestBody ? { type: 'object' } : undefined),
        needsBearer: security.length > 0 && security.every((alt) => 'bearer' in alt),
        mayBearer: security.some((alt) => 'bearer' in alt),
      });
    }
  }
  return list;
}

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let i = 0; i < 10 && current.$ref; i++) {
    current = DOCUMENT.components.schemas[String(current.$ref).split('/').pop()!] ?? {};
  }
  return current;
}

/** Records of the fuzzed app, so generated requests also name things that exist. */
export const known = {
  uuids: [] as string[],
  types: [] as string[],
  metaKeys: [] as string[],
  /** The businesses' and the menus' keys apart, so a storefront path often names a real menu. */
  businessKeys: [] as string[],
  menuKeys: [] as string[],
};

/**
 * A plain string field's value and an email address. Built once: fromSchema runs again for every
 * generated request, and building a stringMatching arbitrary tokenizes
 * fast-check's default strings each time, which was a sixth of a fuzz file's
 * CPU. An arbitrary draws nothing from the seed when built, so the requests
 * generated are the same.
 */
const NAME_LIKE = fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/);
const EMAIL = fc.emailAddress();

/** A plausible value for a field, by its name, so one broken field is often the only defect. */
function byName(name: string | undefined): fc.Arbitrary<unknown> | undefined {
  if (!name) return undefined;
  if (/password/.test(name)) return fc.constant('secret-pass');
  if (/email/.test(name)) return EMAIL;
  if (/uuid$|^owned_by$|^uuid$/.test(name)) return fc.constantFrom(...known.uuids);
  if (/entity_type$|^type$/.test(name)) return fc.constantFrom(...known.types);
  if (name === 'business_meta_key') return fc.constantFrom(...known.businessKeys);
  if (name === 'menu_meta_key') return fc.constantFrom(...known.menuKeys);
  if (/meta_key$/.test(name)) return fc.constantFrom(...known.metaKeys);
  return undefined;
}

/** A value that fits the schema, more or less: the starting point for breaking it. */
function fromSchema(schema: Schema | undefined, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (depth > 6) return fc.constant(null);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    return fc.oneof(...alternatives.map((alt: Schema) => fromSchema(alt, depth, name)));
  }
  if (s.allOf) return fromSchema(Object.assign({}, ...s.allOf.map(resolve)), depth, name);
  if (s.enum) return fc.constantFrom(...s.enum);
  const named = s.type === 'string' || s.type === undefined ? byName(name) : undefined;
  if (named) return named;
  const example = s.example !== undefined ? [fc.constant(s.example)] : [];
  if (s.default !== undefined) example.push(fc.constant(s.default));
  switch (s.type) {
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      const required = new Set<string>(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, inner] of Object.entries(props)) {
        record[key] = fromSchema(inner, depth + 1, key);
      }
      const requiredKeys = Object.keys(props).filter((key) => required.has(key));
      const base = fc.record(record, { requiredKeys });
      return example.length ? fc.oneof(example[0], base) : base;
    }
    case 'array':
      return fc.array(fromSchema(s.items, depth + 1, name), {
        minLength: Math.min(s.minItems ?? 0, 3),
        maxLength: 3,
      });
    case 'integer':
      return fc.oneof(
        ...example,
        fc.integer({ min: s.minimum ?? 1, max: Math.min(s.maximum ?? 1000, 1000) }),
      );
    case 'number':
      return fc.oneof(...example, fc.double({ min: 0, max: 1000, noNaN: true }));
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (s.format === 'uuid') return fc.oneof(fc.constantFrom(...known.uuids), fc.uuid());
      if (s.format === 'email') return EMAIL;
      if (s.format === 'date-time')
        return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.oneof(...example, NAME_LIKE);
    default:
      return fc.oneof(fc.constant({}), fc.constant([]), fc.string({ maxLength: 10 }));
  }
}

/** Every place in a JSON value where another value can go: [] is the whole value. */
function slotsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const slots = [path];
  if (path.length > 6) return slots;
  if (Array.isArray(value)) value.forEach((item, i) => slots.push(...slotsOf(item, [...path, i])));
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) slots.push(...slotsOf(item, [...path, key]));
  }
  return slots;
}

function replaceAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]] = replaceAt(copy[path[0]], path.slice(1), replacement);
  return copy;
}

/** One value of `value` replaced by `replacement`, the place chosen by `pick`. */
function breakOne(value: unknown, pick: number, replacement: unknown): unknown {
  const slots = slotsOf(value);
  return replaceAt(value, slots[pick % slots.length], replacement);
}

export function bodyText(value: unknown): string {
  return JSON.stringify(value ?? null).replace(
    /"\\u0001deep:(\d+)"/g,
    (_, depth: string) => '['.repeat(Number(depth)) + ']'.repeat(Number(depth)),
  );
}

/** Percent-encodes anything, lone surrogates included (as the UTF-8 bytes of one). */
export function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .replace(/[^\ud800-\udfff]+/g, (part) => encodeURIComponent(part))
      .replace(/[\ud800-\udfff]/g, '%ED%A0%80');
  }
}

export type Encoding = 'none' | 'gzip' | 'deflate' | 'br' | 'fake-gzip' | 'compress' | 'double';

/**
 * What is wrong with a request: one thing at a time, the rest plausible, so
 * that the broken part is what the service has to deal with (several defects
 * at once mostly test whichever check runs first).
 */
export type Defect =
  | 'none'
  | 'path'
  | 'query'
  | 'body'
  | 'encoding'
  | 'content-type'
  | 'duplicate-header'
  | 'stray-body';

export interface FuzzRequest {
  defect: Defect;
  pathValues: Record<string, unknown>;
  query: Array<[string, unknown]>;
  body: unknown;
  sendBody: boolean;
  encoding: Encoding;
  contentType: string | string[] | undefined;
  duplicate: 'none' | 'api-key' | 'request-id' | 'authorization' | 'idempotency';
  bearer: boolean;
}

const oddShort = oddString.filter((text) => text.length < 5000);

/**
 * Path values; a storefront path (a business's and a menu's key) names a
 * business with one of its own menus most of the time, so the routes behind
 * it (the QR codes of long, non-ASCII addresses among them) are reached.
 */
function pathValuesFor(
  pathRecord: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const any = fc.record(pathRecord);
  if (!('business_meta_key' in pathRecord && 'menu_meta_key' in pathRecord)) return any;
  const storefront = fc
    .tuple(fc.nat({ max: known.businessKeys.length - 1 }), any)
    .map(([i, values]) => ({
      ...values,
      business_meta_key: known.businessKeys[i],
      menu_meta_key: known.menuKeys[i],
    }));
  return fc.oneof({ weight: 3, arbitrary: storefront }, { weight: 1, arbitrary: any });
}

export function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathRecord: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of pathParams) {
    pathRecord[p.name] = fc.oneof(
      { weight: 4, arbitrary: byName(p.name) ?? fc.constantFrom(...known.uuids) },
      { weight: 1, arbitrary: fc.constantFrom(...known.uuids, ...known.metaKeys) },
      { weight: 1, arbitrary: fromSchema(p.schema, 0, p.name) },
    );
  }
  const validQuery = fc
    .subarray(queryParams, { maxLength: Math.min(4, queryParams.length) })
    .chain((chosen) =>
      fc.tuple(
        ...chosen.map((p) => fc.tuple(fc.constant(p.name), fromSchema(p.schema, 0, p.name))),
      ),
    )
    .map((pairs) => pairs as Array<[string, unknown]>);
  const defects: Defect[] = ['none', 'encoding', 'content-type', 'duplicate-header'];
  if (pathParams.length) defects.push('path', 'path', 'path');
  if (queryParams.length)
    defects.push(...Array<Defect>(Math.min(6, queryParams.length)).fill('query'));
  if (op.body) defects.push('body', 'body', 'body', 'body');
  else defects.push('stray-body');
  return fc
    .record({
      defect: fc.constantFrom(...defects),
      pathValues: pathValuesFor(pathRecord),
      query: validQuery,
      body: op.body ? fromSchema(op.body) : weirdValue,
      pick: fc.nat(),
      odd: fc.oneof(
        { weight: 2, arbitrary: unstorable },
        { weight: 3, arbitrary: oddShort },
        { weight: 2, arbitrary: weirdValue },
      ),
      oddQueryName: fc.oneof(fc.constantFrom('q', ...queryParams.map((p) => p.name)), oddShort),
      encoding: fc.constantFrom<Encoding>(
        'gzip',
        'deflate',
        'br',
        'fake-gzip',
        'compress',
        'double',
      ),
      contentType: fc.constantFrom<string | string[] | undefined>(
        'application/json; charset=utf-8',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        undefined,
        ['application/json', 'text/plain'],
      ),
      duplicate: fc.constantFrom<FuzzRequest['duplicate']>(
        'api-key',
        'request-id',
        'authorization',
        'idempotency',
      ),
      bearer: op.needsBearer ? fc.constant(true) : op.mayBearer ? fc.boolean() : fc.constant(false),
    })
    .map((r): FuzzRequest => {
      const req: FuzzRequest = {
        defect: r.defect,
        pathValues: r.pathValues,
        query: r.query,
        body: r.body,
        sendBody: Boolean(op.body),
        encoding: 'none',
        contentType: 'application/json',
        duplicate: 'none',
        bearer: r.bearer,
      };
      switch (r.defect) {
        case 'path': {
          const names = Object.keys(r.pathValues);
          req.pathValues = { ...r.pathValues, [names[r.pick % names.length]]: r.odd };
          break;
        }
        case 'query':
          req.query = r.query.length
            ? r.query.map((pair, i) => (i === r.pick % r.query.length ? [pair[0], r.odd] : pair))
            : [[String(r.oddQueryName), r.odd]];
          break;
        case 'body':
          req.body = breakOne(r.body, r.pick, r.odd);
          break;
        case 'encoding':
          req.encoding = r.encoding;
          req.sendBody = true;
          break;
        case 'content-type':
          req.contentType = r.contentType;
          req.sendBody = true;
          break;
        case 'duplicate-header':
          req.duplicate = r.duplicate;
          break;
        case 'stray-body':
          req.sendBody = true;
          break;
      }
      return req;
    });
}
