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
 * Seeded and bounded: FUZZ_SEED (default in fuzz-requests.ts) and FUZZ_RUNS (per
 * operation). A failure prints the seed and path; replay one case with
 * FUZZ_SEED=<seed> FUZZ_PATH=<path> and `-t '<operation id>'`. The operations
 * are shared among the files that call describeFuzzing, so that the test
 * run can spread them over its workers.
 */
import http from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { newCatalog } from './entity';
import { createUser, TestUser } from './factory';
import { startTestApp, TestApp } from './test-app';
import {
  BASE_SEED,
  bodyText,
  encode,
  Encoding,
  FuzzRequest,
  known,
  Operation,
  operations,
  REPLAY_PATH,
  requestFor,
  RUNS,
} from './fuzz-requests';

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

export function describeFuzzing(part: number, parts: number): void {
  describe(`fuzzing every operation of openapi/openapi.json, part ${part + 1} of ${parts}`, () => {
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
    // Every `parts`-th operation from `part`; each keeps its seed by its place in the whole document.
    const mine = all
      .map((op, index) => [op.id, op, index] as const)
      .filter(([, , index]) => index % parts === part);

    it('reads every operation of the document', () => {
      expect(all.length).toBeGreaterThan(20);
      expect(new Set(all.map((op) => op.id)).size).toBe(all.length);
      expect(mine.length).toBeGreaterThan(0);
    });

    it.each(mine)(
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
}
