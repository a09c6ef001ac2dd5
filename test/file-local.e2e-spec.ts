import { request as httpRequest } from 'node:http';
import { Clock } from '../src/common/clock';
import { FileService } from '../src/file/file.service';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import {
  issueUploadUrl,
  localPath,
  pngBytes,
  putLocal,
  storedFiles,
  UploadUrl,
} from './support/file';
import { startTestApp, TestApp } from './support/test-app';

const PUBLIC_BASE_URL = 'http://files.test:8080';

/** Sends a body in chunks (no Content-Length), optionally dropping the connection half-way. */
function putChunked(
  t: TestApp,
  uploadUrl: string,
  chunks: Buffer[],
  options: { abortAfter?: number } = {},
): Promise<{ status: number; body: any } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.baseUrl}${localPath(uploadUrl)}`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part) => (text += part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', (error) => (options.abortAfter === undefined ? reject(error) : undefined));
    chunks.forEach((chunk, index) => {
      if (options.abortAfter !== undefined && index === options.abortAfter) {
        setTimeout(() => {
          req.destroy();
          resolve('aborted');
        }, 200);
        return;
      }
      if (options.abortAfter === undefined || index < options.abortAfter) req.write(chunk);
    });
    if (options.abortAfter === undefined) req.end();
  });
}

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(check()).toBe(true);
}

/** A query parameter of a URL replaced. */
function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

describe('local storage driver', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL });
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t?.close());
  afterEach(() => t.app.get(Clock).reset());

  /** The URL, after checking that nothing at all is stored for it. */
  async function expectNothingStored(entry: UploadUrl): Promise<void> {
    expect(
      storedFiles(t).filter((path) => path.includes(entry.object_key.split('/').pop()!)),
    ).toEqual([]);
    expect(storedFiles(t).filter((path) => path.startsWith('files-incoming'))).toEqual([]);
    expectError(await t.http.get(localPath(entry.file_url)), 404, 'NOT_FOUND');
  }

  it('takes a PUT without a key and serves the bytes back with type, nosniff and long caching', async () => {
    const bytes = pngBytes(3000);
    const entry = await issueUploadUrl(t, owner, { file_size: bytes.length });
    expect(new URL(entry.upload_url).origin).toBe(PUBLIC_BASE_URL);

    const put = await putLocal(t, entry.upload_url, bytes);
    expect(put.body.message).toBe('File uploaded');
    expect(expectOk(put)).toEqual({
      object_key: entry.object_key,
      file_url: entry.file_url,
      size: bytes.length,
      content_type: 'image/png',
    });
    expect(storedFiles(t)).toContain(`files/${entry.object_key}`);

    const got = await t.http
      .get(localPath(entry.file_url))
      .buffer(true)
      .parse((res, done) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => done(null, Buffer.concat(parts)));
      });
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-length']).toBe(String(bytes.length));
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const head = await t.http.head(localPath(entry.file_url));
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
  });

  it('stores a body sent in chunks without Content-Length', async () => {
    const bytes = pngBytes(5000);
    const entry = await issueUploadUrl(t, owner, { file_size: bytes.length });
    const answer = await putChunked(t, entry.upload_url, [
      bytes.subarray(0, 2000),
      bytes.subarray(2000),
    ]);
    expect(answer).toMatchObject({
      status: 200,
      body: { status: true, data: { size: bytes.length } },
    });
    const got = await t.http.get(localPath(entry.file_url));
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('lets a browser on another origin PUT and GET (CORS)', async () => {
    const entry = await issueUploadUrl(t, owner);
    const preflight = await t.http
      .options(localPath(entry.upload_url))
      .set('origin', 'https://owner.example')
      .set('access-control-request-method', 'PUT')
      .set('access-control-request-headers', 'content-type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('PUT');
    expect(preflight.headers['access-control-allow-headers'].toLowerCase()).toContain(
      'content-type',
    );

    const put = await putLocal(t, entry.upload_url, pngBytes()).set(
      'origin',
      'https://owner.example',
    );
    expectOk(put);
    expect(put.headers['access-control-allow-origin']).toBe('*');
    const got = await t.http.get(localPath(entry.file_url)).set('origin', 'https://shop.example');
    expect(got.status).toBe(200);
    expect(got.headers['access-control-allow-origin']).toBe('*');
    expect(got.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  describe('refusals of the PUT leave nothing stored', () => {
    it.each([
      [
        'a changed signature',
        (url: string) => {
          const signature = new URL(url).searchParams.get('signature')!;
          const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
          return withParam(url, 'signature', flipped);
        },
      ],
      [
        'no signature',
        (url: string) => {
          const parsed = new URL(url);
          parsed.searchParams.delete('signature');
          return parsed.toString();
        },
      ],
      ['a signature that is not hex', (url: string) => withParam(url, 'signature', 'x'.repeat(64))],
      [
        'a later expiry',
        (url: string) => {
          const expires = Number(new URL(url).searchParams.get('expires'));
          return withParam(url, 'expires', String(expires + 86400));
        },
      ],
      ['a larger size', (url: string) => withParam(url, 'max_bytes', '999999')],
      ['another type', (url: string) => withParam(url, 'content_type', 'image/gif')],
      ['another key', (url: string) => url.replace(/-logo\.png\?/, '-logo2.png?')],
      ['a repeated parameter', (url: string) => `${url}&expires=1`],
    ])('refuses %s with 403 FORBIDDEN', async (_label, tamper) => {
      const entry = await issueUploadUrl(t, owner);
      const tampered = tamper(entry.upload_url);
      // Sent with the type the tampered URL claims, so only the signature can refuse it.
      const type = new URL(tampered).searchParams.get('content_type') ?? 'image/png';
      const res = await putLocal(t, tampered, pngBytes(), type);
      expectError(res, 403, 'FORBIDDEN');
      await expectNothingStored(entry);
    });

    it('refuses an expired URL with 403 FORBIDDEN', async () => {
      const entry = await issueUploadUrl(t, owner, {}, 60);
      t.app.get(Clock).advance(61_000);
      const res = await putLocal(t, entry.upload_url, pngBytes());
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.message).toMatch(/expired/);
      await expectNothingStored(entry);
    });

    it('refuses a Content-Type other than the signed one with 400 BAD_REQUEST', async () => {
      const entry = await issueUploadUrl(t, owner);
      for (const type of [
        'image/jpeg',
        'text/html',
        'application/octet-stream',
        'image/png; x=1',
      ]) {
        expectError(await putLocal(t, entry.upload_url, pngBytes(), type), 400, 'BAD_REQUEST');
      }
      expectError(
        await t.http.put(localPath(entry.upload_url)).unset('content-type').send(),
        400,
        'BAD_REQUEST',
      );
      await expectNothingStored(entry);
    });

    it('refuses a body larger than the declared size with 413 PAYLOAD_TOO_LARGE', async () => {
      const bytes = pngBytes(100);
      const entry = await issueUploadUrl(t, owner, { file_size: bytes.length - 1 });
      expectError(await putLocal(t, entry.upload_url, bytes), 413, 'PAYLOAD_TOO_LARGE');
      await expectNothingStored(entry);
    });

    it('stops a chunked body at the limit with 413 PAYLOAD_TOO_LARGE', async () => {
      const entry = await issueUploadUrl(t, owner, { file_size: 1000 });
      const chunks = Array.from({ length: 64 }, () => pngBytes(1000));
      const answer = await putChunked(t, entry.upload_url, chunks);
      expect(answer).toMatchObject({
        status: 413,
        body: { status: false, error: { code: 'PAYLOAD_TOO_LARGE' } },
      });
      await expectNothingStored(entry);
    });

    it('refuses an empty body with 400 BAD_REQUEST', async () => {
      const entry = await issueUploadUrl(t, owner);
      expectError(await putLocal(t, entry.upload_url, Buffer.alloc(0)), 400, 'BAD_REQUEST');
      await expectNothingStored(entry);
    });

    it('keeps nothing of an upload whose connection drops half-way', async () => {
      const entry = await issueUploadUrl(t, owner, { file_size: 4000 });
      const answer = await putChunked(t, entry.upload_url, [pngBytes(1000), pngBytes(1000)], {
        abortAfter: 1,
      });
      expect(answer).toBe('aborted');
      await eventually(
        () => storedFiles(t).filter((p) => p.startsWith('files-incoming')).length === 0,
      );
      await expectNothingStored(entry);
    });

    it('refuses a second PUT to the same URL with 409 CONFLICT and keeps the first file', async () => {
      const first = pngBytes(10);
      const entry = await issueUploadUrl(t, owner, { file_size: first.length });
      expectOk(await putLocal(t, entry.upload_url, first));
      const before = storedFiles(t);
      expectError(await putLocal(t, entry.upload_url, pngBytes(10)), 409, 'CONFLICT');
      expect(storedFiles(t)).toEqual(before);
      const got = await t.http.get(localPath(entry.file_url));
      expect(Buffer.compare(got.body as Buffer, first)).toBe(0);
    });

    it('lets only one of two simultaneous PUTs to one URL win', async () => {
      const entry = await issueUploadUrl(t, owner, { file_size: 2000 });
      const answers = await Promise.all([
        putLocal(t, entry.upload_url, pngBytes(1000)),
        putLocal(t, entry.upload_url, pngBytes(1000)),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!;
      expect(winner.body.data.object_key).toBe(entry.object_key);
      expect(storedFiles(t).filter((p) => p.startsWith('files-incoming'))).toEqual([]);
    });
  });

  describe('reads', () => {
    it.each([
      ['a key never uploaded', (key: string) => `/files/${key.replace(/-logo/, '-other')}`],
      ['a path with ..', () => '/files/%2e%2e/%2e%2e/package.json'],
      ['an encoded slash', (key: string) => `/files/${key.split('/')[0]}%2F..%2F..%2Fpackage.json`],
      ['a raw ..', (key: string) => `/files/${key.split('/')[0]}/../../package.json`],
      ['a dot file', (key: string) => `/files/${key.split('/')[0]}/.logo.png`],
      ['a key without a uuid', () => '/files/logo.png'],
      ['a key of another type', (key: string) => `/files/${key.replace(/\.png$/, '.html')}`],
      ['the incoming folder', () => '/files/../files-incoming/x.png'],
      ['the upload route', (key: string) => `/files/upload/${key}`],
      ['the storage root', () => '/files/'],
    ])('answers %s with 404 NOT_FOUND', async (_label, path) => {
      const entry = await issueUploadUrl(t, owner);
      expectOk(await putLocal(t, entry.upload_url, pngBytes()));
      const res = await t.http.get(path(entry.object_key));
      expectError(res, 404, 'NOT_FOUND');
      expect(res.headers['cache-control'] ?? '').not.toContain('immutable');
    });
  });

  describe('attaching a URL to a record (FileService.assertAttachable)', () => {
    let files: FileService;
    beforeAll(() => {
      files = t.app.get(FileService);
    });

    it('accepts an uploaded file of the owner, and URLs outside our storage', async () => {
      const entry = await issueUploadUrl(t, owner);
      expectOk(await putLocal(t, entry.upload_url, pngBytes()));
      await expect(files.assertAttachable(entry.file_url, owner.uuid)).resolves.toBeUndefined();
      await expect(
        files.assertAttachable('https://cdn.example.com/logo.png', owner.uuid),
      ).resolves.toBeUndefined();
      await expect(files.assertAttachable('', owner.uuid)).resolves.toBeUndefined();
      await expect(files.assertAttachable(null, owner.uuid)).resolves.toBeUndefined();
    });

    it.each([
      [
        'another user’s file',
        async () => {
          const entry = await issueUploadUrl(t, other);
          expectOk(await putLocal(t, entry.upload_url, pngBytes()));
          return entry.file_url;
        },
      ],
      ['a file never uploaded', async () => (await issueUploadUrl(t, owner)).file_url],
      [
        'a path into storage that is no key',
        async () => `${PUBLIC_BASE_URL}/files/pgdata/PG_VERSION`,
      ],
      ['a malformed escape into storage', async () => `${PUBLIC_BASE_URL}/files/%E0%A4%A`],
    ])('refuses %s with 422 UNPROCESSABLE', async (_label, url) => {
      const target = await url();
      const before = storedFiles(t);
      await expect(files.assertAttachable(target, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
        details: [expect.objectContaining({ field: 'entity_featured_url' })],
      });
      expect(storedFiles(t)).toEqual(before);
    });
  });
});
