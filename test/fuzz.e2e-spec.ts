import { readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { newCatalog } from './support/entity';
import { oddString, unstorable, weirdValue } from './support/fuzz-values';
import { createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Property-based fuzzing of every operation of the published OpenAPI
 * document (operations added later are covered without touching this file).
 * For each operation fast-check generates requests from the operation's own
 * parameters and body schema and then breaks them: wrong JSON types, nulls,
 * deep nesting, huge and odd strings (NUL, lone surrogates, SQL and JSON-path
 * fragments), body encodings and duplicate headers, always with a valid API
 * key and, where the operation needs one, a valid Bearer token. Every answer
 * must be below 500 and in the envelope, and a refused request must not have
 * added a row to any table.
 *
 * Seeded and bounded: FUZZ_SEED (default below) and FUZZ_RUNS (per
 * operation). A failure prints the seed and path; replay one case with
 * FUZZ_SEED=<seed> FUZZ_PATH=<path> and `-t '<operation id>'`.
 */
const BASE_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const REPLAY_PATH = process.env.FUZZ_PATH;

type Schema = Record<string, any>;

interface Operation {
  id: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  body: Schema | undefined;
  needsBearer: boolean;
  mayBearer: boolean;
}

const DOCUMENT = JSON.parse(
  readFileSync(join(__dirname, '..', 'openapi', 'openapi.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, Schema> };
};

function operations(): Operation[] {
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
const known = {
  uuids: [] as string[],
  types: [] as string[],
  metaKeys: [] as string[],
  /** The businesses' and the menus' keys apart, so a storefront path often names a real menu. */
  businessKeys: [] as string[],
  menuKeys: [] as string[],
};

/** A plausible value for a field, by its name, so one broken field is often the only defect. */
function byName(name: string | undefined): fc.Arbitrary<unknown> | undefined {
  if (!name) return undefined;
  if (/password/.test(name)) return fc.constant('secret-pass');
  if (/email/.test(name)) return fc.emailAddress();
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
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time') return fc.date().map((d) => d.toISOString());
      return fc.oneof(...example, fc.stringMatching(/^[a-z][a-z0-9_-]{0,15}$/));
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

function bodyText(value: unknown): string {
  return JSON.stringify(value ?? null).replace(
    /"\\u0001deep:(\d+)"/g,
    (_, depth: string) => '['.repeat(Number(depth)) + ']'.repeat(Number(depth)),
  );
}

/** Percent-encodes anything, lone surrogates included (as the UTF-8 bytes of one). */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .replace(/[^\ud800-\udfff]+/g, (part) => encodeURIComponent(part))
      .replace(/[\ud800-\udfff]/g, '%ED%A0%80');
  }
}

type Encoding = 'none' | 'gzip' | 'deflate' | 'br' | 'fake-gzip' | 'compress' | 'double';

/**
 * What is wrong with a request: one thing at a time, the rest plausible, so
 * that the broken part is what the service has to deal with (several defects
 * at once mostly test whichever check runs first).
 */
type Defect =
  | 'none'
  | 'path'
  | 'query'
  | 'body'
  | 'encoding'
  | 'content-type'
  | 'duplicate-header'
  | 'stray-body';

interface FuzzRequest {
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

function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
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

interface Answer {
  status: number;
  contentType: string;
  text: string;
  requestId: string | undefined;
}

function send(t: TestApp, op: Operation, req: FuzzRequest, user: TestUser): Promise<Answer> {
  let path = op.path;
  for (const [name, value] of Object.entries(req.pathValues)) {
    path = path.replace(`{${name}}`, encode(value));
  }
  const query = req.query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  const url = new URL(`${t.baseUrl}${path}${query ? `?${query}` : ''}`);
  let payload: Buffer | undefined;
  const headers: Record<string, string | string[]> = { 'x-api-key': t.config.apiKeys[0] };
  if (req.sendBody) {
    const raw = Buffer.from(bodyText(req.body));
    const encoders: Record<Encoding, [string | undefined, (b: Buffer) => Buffer]> = {
      none: [undefined, (b) => b],
      gzip: ['gzip', gzipSync],
      deflate: ['deflate', deflateSync],
      br: ['br', brotliCompressSync],
      'fake-gzip': ['gzip', (b) => b],
      compress: ['compress', (b) => b],
      double: ['gzip, gzip', (b) => gzipSync(gzipSync(b))],
    };
    const [encoding, encodeBody] = encoders[req.encoding];
    payload = encodeBody(raw);
    if (encoding) headers['content-encoding'] = encoding;
    if (req.contentType) headers['content-type'] = req.contentType;
    headers['content-length'] = String(payload.length);
  }
  if (req.bearer) headers.authorization = `Bearer ${user.token}`;
  switch (req.duplicate) {
    case 'api-key':
      headers['x-api-key'] = [t.config.apiKeys[0], 'another-key-0123456789'];
      break;
    case 'request-id':
      headers['x-request-id'] = ['first-id', 'second-id'];
      break;
    case 'authorization':
      headers.authorization = [`Bearer ${user.token}`, 'Bearer nonsense'];
      break;
    case 'idempotency':
      headers['idempotency-key'] = ['key-one-0123456789', 'key-two-0123456789'];
      break;
  }
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      url,
      { method: op.method, headers, agent: false, timeout: 60_000 },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        const requestId = res.headers['x-request-id'] as string | undefined;
        if (contentType.startsWith('text/event-stream') && (res.statusCode ?? 0) < 300) {
          // An open event stream: its status is the answer.
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, text: '', requestId });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType,
            text: Buffer.concat(chunks).toString('utf8'),
            requestId,
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 60 s')));
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Rows of every table but the rate-limit counters (refusals may count against a limit). */
async function tableCounts(t: TestApp, tables: string[]): Promise<Record<string, number>> {
  const [row] = await t.dataSource.query(
    `SELECT ${tables.map((name) => `(SELECT count(*) FROM "${name}")::int AS "${name}"`).join(', ')}`,
  );
  return row as Record<string, number>;
}

function describeRequest(op: Operation, req: FuzzRequest, answer: Answer): string {
  return `${op.method} ${op.path} → ${answer.status} ${answer.text.slice(0, 300)}\nrequest: ${JSON.stringify(
    { ...req, body: bodyText(req.body).slice(0, 300) },
  )}`;
}

/**
 * Operations whose success is a JSON file to save (a download, documented as
 * the bare document) rather than an answer in the envelope; their refusals
 * are still in the error envelope.
 */
const JSON_DOWNLOADS = new Set(['exportMenuJson']);

function checkAnswer(op: Operation, req: FuzzRequest, answer: Answer): void {
  const context = describeRequest(op, req, answer);
  if (answer.status >= 500) throw new Error(`5xx answer\n${context}`);
  if (!answer.requestId) throw new Error(`no x-request-id\n${context}`);
  const download = JSON_DOWNLOADS.has(op.id) && answer.status < 300;
  const json = answer.contentType.includes('application/json') && !download;
  if (answer.status >= 400 || json) {
    let body: any;
    try {
      body = JSON.parse(answer.text);
    } catch {
      throw new Error(`answer is not JSON\n${context}`);
    }
    if (typeof body?.status !== 'boolean' || typeof body.message !== 'string') {
      throw new Error(`answer is not in the envelope\n${context}`);
    }
    if (answer.status >= 400) {
      if (
        body.status !== false ||
        typeof body.error?.code !== 'string' ||
        !Array.isArray(body.error.details)
      ) {
        throw new Error(`error answer is not in the error envelope\n${context}`);
      }
    }
  }
}

describe('fuzzing every operation of openapi/openapi.json', () => {
  let t: TestApp;
  let user: TestUser;
  let tables: string[];

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
      RATE_LIMIT_ORDER_PER_MINUTE: '100000',
      RATE_LIMIT_QUOTE_PER_MINUTE: '100000',
      RATE_LIMIT_UNKNOWN_CODE_PER_MINUTE: '100000',
      RATE_LIMIT_QR_PER_MINUTE: '100000',
      RATE_LIMIT_QR_SHEET_PER_MINUTE: '100000',
    });
    user = await createUser(t);
    const catalog = await newCatalog(t, user, { items: [{}, {}] });
    // Storefronts whose addresses are long and not ASCII: the longest meta_keys written now
    // (120 characters, four UTF-8 bytes each), and 255 CJK characters stored before that rule.
    const written = await newCatalog(t, user, {
      business: { meta_key: '🍕'.repeat(120) },
      menu: { meta_key: '🥘'.repeat(120) },
    });
    const legacy = await newCatalog(t, user);
    const [legacyBusiness, legacyMenu] = ['餐'.repeat(255), '菜'.repeat(255)];
    await t.dataSource.query('UPDATE entities SET meta_key = $1 WHERE uuid = $2', [
      legacyBusiness,
      legacy.business.uuid,
    ]);
    await t.dataSource.query('UPDATE entities SET meta_key = $1 WHERE uuid = $2', [
      legacyMenu,
      legacy.menu.uuid,
    ]);
    const ns = t.config.namespace;
    known.types = [`${ns}_business`, `${ns}_business_menu`, `${ns}_business_menu_item`];
    known.uuids = [
      user.uuid,
      catalog.business.uuid,
      catalog.menu.uuid,
      ...catalog.items.map((item) => item.uuid),
    ];
    known.businessKeys = [
      catalog.business.meta_key ?? 'shop',
      written.business.meta_key!,
      legacyBusiness,
    ];
    known.menuKeys = [catalog.menu.meta_key ?? 'menu', written.menu.meta_key!, legacyMenu];
    known.metaKeys = [...known.businessKeys, ...known.menuKeys];
    const rows: Array<{ table_name: string }> = await t.dataSource.query(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
          AND table_name NOT IN ('rate_limit_counters', 'migrations')
        ORDER BY table_name`,
    );
    tables = rows.map((row) => row.table_name);
  });
  afterAll(() => t?.close());

  const all = operations();

  it('reads every operation of the document', () => {
    expect(all.length).toBeGreaterThan(20);
    expect(new Set(all.map((op) => op.id)).size).toBe(all.length);
  });

  it.each(all.map((op, index) => [op.id, op, index] as const))(
    '%s: never a 5xx, always the envelope, nothing stored when refused',
    async (_id, op, index) => {
      const seed = BASE_SEED + index;
      // The counts after a refused request are the next request's counts
      // before it (a refused request stored nothing); after an accepted one
      // they are counted again.
      let counted: string | undefined;
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (req) => {
          const before = counted ?? JSON.stringify(await tableCounts(t, tables));
          counted = undefined;
          const answer = await send(t, op, req, user);
          checkAnswer(op, req, answer);
          if (answer.status >= 400) {
            const after = JSON.stringify(await tableCounts(t, tables));
            if (after !== before) {
              throw new Error(
                `a refused request stored rows: ${before} → ${after}\n${describeRequest(op, req, answer)}`,
              );
            }
            counted = after;
          }
        }),
        {
          seed,
          numRuns: RUNS,
          endOnFailure: true,
          ...(REPLAY_PATH ? { path: REPLAY_PATH } : {}),
          reporter: (details) => {
            if (details.failed) {
              throw new Error(
                `${op.id} failed; replay with FUZZ_SEED=${BASE_SEED} FUZZ_PATH=${details.counterexamplePath} -t '${op.id}'\n${String(
                  details.errorInstance instanceof Error
                    ? details.errorInstance.message
                    : details.errorInstance,
                )}`,
              );
            }
          },
        },
      );
    },
  );
});
