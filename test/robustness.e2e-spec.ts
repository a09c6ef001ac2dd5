import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { countUsers, registerAndLogin, registerBody, storedUser } from './support/account';
import { entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { postUploadUrls } from './support/file';
import { orderBody, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/** Nested arrays `depth` levels deep (the outer array is level 1). */
function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

function fieldsOf(res: request.Response): string[] {
  return (res.body.error?.details ?? []).map((detail: { field: string }) => detail.field);
}

function messageOf(res: request.Response, field: string): string {
  const detail = (res.body.error?.details ?? []).find(
    (item: { field: string }) => item.field === field,
  );
  return detail?.message ?? '';
}

/** One HTTP request written by hand on a raw socket; resolves with everything the server sent. */
function rawExchange(t: TestApp, text: string): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parseRaw(answer: string): { status: number; headers: string; body: any } {
  const [head, ...rest] = answer.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    headers: head,
    body: JSON.parse(rest.join('\r\n\r\n')),
  };
}

// R28: liberal input.
describe('robustness: whatever a client sends, a 4xx in the envelope', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  const register = () => t.http.post(`${t.core}/user/register`).set(apiHeaders(t));

  describe('body encodings', () => {
    it.each([
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ])('decodes a %s body', async (encoding, compress) => {
      const body = registerBody();
      // fetch, as supertest would serialise a Buffer sent as application/json.
      const res = await fetch(`${t.baseUrl}${t.core}/user/register`, {
        method: 'POST',
        headers: {
          ...apiHeaders(t),
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: compress(Buffer.from(JSON.stringify(body))),
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { data: { email: string } }).data.email).toBe(body.email);
    });

    it('refuses a gzip body that does not decode: 400 BAD_REQUEST, nothing stored, also on /health', async () => {
      const before = await countUsers(t);
      const res = await register()
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .send(JSON.stringify(registerBody()));
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(await countUsers(t)).toBe(before);

      const health = await t.http
        .get('/health')
        .set('content-type', 'application/json')
        .set('content-encoding', 'gzip')
        .send('{"not":"gzip"}');
      expectError(health, 400, 'BAD_REQUEST');
    });

    it.each(['compress', 'zstd', 'gzip, br', 'identity-ish'])(
      'refuses a body in %p: 415 UNSUPPORTED_MEDIA_TYPE, nothing stored',
      async (encoding) => {
        const before = await countUsers(t);
        const res = await register()
          .set('content-type', 'application/json')
          .set('content-encoding', encoding)
          .send(JSON.stringify(registerBody()));
        expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
        expect(await countUsers(t)).toBe(before);
      },
    );
  });

  describe('nesting depth', () => {
    it('refuses 5,000 levels on register and on guest orders: 400 BAD_REQUEST, nothing stored', async () => {
      const beforeUsers = await countUsers(t);
      const beforeOrders = await rowCounts(t);
      const deep = `{"meta_data":${nested(5000)}}`;
      expectError(
        await register().set('content-type', 'application/json').send(deep),
        400,
        'BAD_REQUEST',
      );
      expectError(
        await t.http
          .post(`${t.orders}/order`)
          .set(apiHeaders(t))
          .set('content-type', 'application/json')
          .send(`{"cart_items":${nested(5000)}}`),
        400,
        'BAD_REQUEST',
      );
      expect(await countUsers(t)).toBe(beforeUsers);
      expect(await rowCounts(t)).toEqual(beforeOrders);
    });

    it('takes 32 levels and refuses 33, counting the top-level value as level 1', async () => {
      // {"meta_data": [[…]]}: the object is level 1, the arrays levels 2 and up.
      const at32 = await register()
        .set('content-type', 'application/json')
        .send(JSON.stringify({ ...registerBody(), meta_data: JSON.parse(nested(31)) }));
      expectOk(at32, 201);
      const before = await countUsers(t);
      const at33 = await register()
        .set('content-type', 'application/json')
        .send(JSON.stringify({ ...registerBody(), meta_data: JSON.parse(nested(32)) }));
      expectError(at33, 400, 'BAD_REQUEST');
      expect(await countUsers(t)).toBe(before);
    });

    it('does not count brackets inside strings', async () => {
      const res = await register().send(registerBody({ name: '['.repeat(100) }));
      expectOk(res, 201);
    });
  });

  describe('the string rule: no U+0000, no lone surrogate', () => {
    it.each([
      ['a NUL in a body field', '{"name":"a\\u0000b"}', 'name'],
      [
        'a NUL deep in meta_data',
        '{"meta_data":[{"meta_key":"k\\u0000"}]}',
        'meta_data.0.meta_key',
      ],
      ['a NUL in a key', '{"meta_data":{"k\\u0000":1}}', 'meta_data.k\u0000'],
      ['a lone surrogate as the email', '{"email":"\\ud800@example.test"}', 'email'],
      ['a lone low surrogate', '{"username":"x\\udc00"}', 'username'],
    ])(
      'refuses %s: 400 VALIDATION_FAILED naming it, nothing stored',
      async (_label, patch, field) => {
        const before = await countUsers(t);
        const body = { ...registerBody(), ...JSON.parse(patch) };
        const res = await register()
          .set('content-type', 'application/json')
          // JSON.stringify keeps \u0000 and lone surrogates as escapes.
          .send(JSON.stringify(body));
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(fieldsOf(res)).toEqual([field]);
        expect(await countUsers(t)).toBe(before);
      },
    );

    it('takes a well-formed surrogate pair (an emoji)', async () => {
      expectOk(await register().send(registerBody({ name: 'Owner \ud83c\udf55' })), 201);
    });

    it.each(['q', 'meta_key', 'slug'])('refuses a NUL in the query parameter %s', async (name) => {
      const res = await t.http.get(`${entityPath(t, 'business')}?${name}=a%00b`).set(apiHeaders(t));
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual([name]);
    });

    it('refuses a NUL in path parameters: storefront and retrieve-by-meta-key', async () => {
      const storefront = await t.http
        .get(`${t.core}/storefront/shop%00x/menu/main`)
        .set(apiHeaders(t));
      expectError(storefront, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(storefront)).toEqual(['business_meta_key']);
      const byMetaKey = await t.http
        .get(entityPath(t, 'business', 'retrieve-by-meta-key', 'a%00'))
        .set(apiHeaders(t));
      expectError(byMetaKey, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(byMetaKey)).toEqual(['meta_key']);
    });

    it('answers a path that is not valid percent-encoding with a 400 in the envelope', async () => {
      const res = await t.http
        .get(entityPath(t, 'business', 'retrieve-by-meta-key', '%ED%A0%80'))
        .set(apiHeaders(t));
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.headers['x-request-id']).toBeTruthy();
    });
  });

  describe('the validation layer', () => {
    it('refuses {"files":[[]]} on upload-url naming files.0', async () => {
      const res = await postUploadUrls(t, owner, { files: [[]] });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual(['files.0']);
    });

    it('refuses a list where an object belongs, and an object where a string belongs', async () => {
      const list = await postUploadUrls(t, owner, { files: {} });
      expectError(list, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(list)).toEqual(['files']);
      const before = await countUsers(t);
      const res = await register().send(registerBody({ name: { first: 'A' } }));
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(messageOf(res, 'name')).toBe('name must be a string');
      expect(await countUsers(t)).toBe(before);
    });

    it.each(['change-password', 'verify-email-address'])(
      'takes "email_address": null on %s as not sent',
      async (path) => {
        const user = await registerAndLogin(t);
        const res = await t.http
          .post(`${t.core}/user/${path}`)
          .set(user.headers)
          .send({ email_address: null });
        expectOk(res);
      },
    );

    it('says a missing field is required, not that it is too long', async () => {
      const body = registerBody();
      delete body.email;
      const res = await register().send(body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(messageOf(res, 'email')).toBe('email is required');
    });

    it('says a null required field is required', async () => {
      const res = await register().send(registerBody({ password: null }));
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(messageOf(res, 'password')).toBe('password is required');
    });

    it('says a wrong type is the wrong type: quantity "two" and per_page=abc', async () => {
      const catalog = await newCatalog(t, owner);
      const before = await rowCounts(t);
      const order = await placeOrderRequest(
        t,
        orderBody(catalog, {
          cart_items: [{ uuid: catalog.items[0].uuid, quantity: 'two', item_note: '' }],
        }),
      );
      expectError(order, 400, 'VALIDATION_FAILED');
      expect(messageOf(order, 'cart_items.0.quantity')).toMatch(/integer/);
      expect(await rowCounts(t)).toEqual(before);

      const list = await t.http.get(`${entityPath(t, 'business')}?per_page=abc`).set(apiHeaders(t));
      expectError(list, 400, 'VALIDATION_FAILED');
      expect(messageOf(list, 'per_page')).toMatch(/integer/);
    });

    it('refuses a body that is not an object on a route that takes one', async () => {
      const res = await register().set('content-type', 'application/json').send('[1,2]');
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual(['body']);
    });
  });

  describe('what the owner web client sends', () => {
    it('registers with meta_data as an array of {meta_key, meta_value, extra_data}, stored as sent', async () => {
      const metaData = [
        { meta_key: 'phone', meta_value: '+233200000000', extra_data: {} },
        { meta_key: 'country', meta_value: 'GH', extra_data: { source: 'signup' } },
      ];
      const res = await register().send(registerBody({ meta_data: metaData }));
      const data = expectOk(res, 201);
      expect((await storedUser(t, data.uuid))!.meta_data).toEqual(metaData);
    });

    it('refuses meta_data over 16 KiB, array or not, nothing stored', async () => {
      const before = await countUsers(t);
      const res = await register().send(
        registerBody({ meta_data: [{ meta_key: 'blob', meta_value: 'x'.repeat(16 * 1024) }] }),
      );
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual(['meta_data']);
      expect(await countUsers(t)).toBe(before);
    });

    it.each([
      ['Enable', 'enabled'],
      ['DISABLE', 'disabled'],
      ['disable', 'disabled'],
      ['Enabled', 'enabled'],
    ])('takes status %p as %p and stores it so', async (sent, stored) => {
      const res = await t.http
        .post(entityPath(t, 'business'))
        .set(owner.headers)
        .send({ title_name: 'Shop', meta_key: `shop-${sent}-${Date.now()}`, status: sent });
      const data = expectOk(res, 201);
      expect(data.status).toBe(stored);
      const [row] = await t.dataSource.query('SELECT status FROM entities WHERE uuid = $1', [
        data.uuid,
      ]);
      expect(row.status).toBe(stored);
    });

    it('still refuses any other status', async () => {
      const res = await t.http
        .post(entityPath(t, 'business'))
        .set(owner.headers)
        .send({ title_name: 'Shop', meta_key: `shop-x-${Date.now()}`, status: 'on' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual(['status']);
    });
  });

  describe("Node's HTTP parser errors", () => {
    it('answers headers that are too large with 431 in the envelope and a request id', async () => {
      const answer = parseRaw(
        await rawExchange(
          t,
          `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
        ),
      );
      expect(answer.status).toBe(431);
      expect(answer.headers).toMatch(/^x-request-id: [0-9a-f-]{36}$/im);
      expect(answer.body).toMatchObject({ status: false, error: { code: 'BAD_REQUEST' } });
    });

    it('answers broken framing with 400 in the envelope and a request id', async () => {
      const answer = parseRaw(
        await rawExchange(t, 'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'),
      );
      expect(answer.status).toBe(400);
      expect(answer.headers).toMatch(/^x-request-id: [0-9a-f-]{36}$/im);
      expect(answer.body).toMatchObject({ status: false, error: { code: 'BAD_REQUEST' } });
    });
  });
});

describe('client addresses with the default TRUST_PROXY', () => {
  let t: TestApp;

  beforeAll(async () => {
    // An empty value is the default: no proxy is trusted.
    t = await startTestApp({ TRUST_PROXY: '', RATE_LIMIT_AUTH_PER_MINUTE: '2' });
  });
  afterAll(() => t?.close());

  it('does not let a client choose its address with X-Forwarded-For', async () => {
    const attempt = (n: number) =>
      t.http
        .post(`${t.core}/user/login`)
        .set(apiHeaders(t))
        .set('x-forwarded-for', `203.0.113.${n}`)
        .send({ email: `nobody-${n}@example.test`, password: 'wrong-pass' });
    expectError(await attempt(1), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt(2), 401, 'INVALID_CREDENTIALS');
    // A third address and a third email, but the same client: the per-IP limit holds.
    const third = await attempt(3);
    expectError(third, 429, 'RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });
});
