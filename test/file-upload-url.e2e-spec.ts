import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { postUploadUrls, storedFiles, UploadUrl } from './support/file';
import { startTestApp, TestApp } from './support/test-app';

const PUBLIC_BASE_URL = 'http://files.test:8080';
const KEY_RANDOM = '[0-9a-f]{24}';

function png(overrides: Record<string, unknown> = {}) {
  return {
    file_name: 'logo.png',
    file_type: 'image/png',
    file_size: 20480,
    visibility: 'public',
    ...overrides,
  };
}

// R26: upload url paths.
// R27: upload rules.
describe('upload URLs', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL });
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t?.close());

  afterEach(() => {
    // Issuing a URL stores nothing, whether it is refused or not.
    expect(storedFiles(t)).toEqual([]);
  });

  it('answers one entry per file, in order: key, upload URL, method, headers, file URL, expiry', async () => {
    const before = Date.now();
    const res = await postUploadUrls(t, owner, {
      files: [
        png({ directory: `business/logo/${owner.uuid}` }),
        png({ file_name: 'photo.jpeg', file_type: 'image/jpeg', directory: 'menu/cover' }),
        png({ file_name: 'anim.gif', file_type: 'image/gif' }),
        png({ file_name: 'pic.webp', file_type: 'image/webp' }),
      ],
      expires_in: 3600,
    });
    const data = expectOk<UploadUrl[]>(res);
    expect(res.body.message).toBe('Upload URLs created');
    expect(data).toHaveLength(4);

    const [logo, photo, gif, webp] = data;
    expect(logo.object_key).toMatch(
      new RegExp(`^${owner.uuid}/business/logo/${KEY_RANDOM}-logo\\.png$`),
    );
    expect(photo.object_key).toMatch(
      new RegExp(`^${owner.uuid}/menu/cover/${KEY_RANDOM}-photo\\.jpeg$`),
    );
    expect(gif.object_key).toMatch(new RegExp(`^${owner.uuid}/${KEY_RANDOM}-anim\\.gif$`));
    expect(webp.object_key).toMatch(new RegExp(`^${owner.uuid}/${KEY_RANDOM}-pic\\.webp$`));

    for (const [entry, type] of [
      [logo, 'image/png'],
      [photo, 'image/jpeg'],
      [gif, 'image/gif'],
      [webp, 'image/webp'],
    ] as const) {
      expect(entry.method).toBe('PUT');
      expect(entry.headers).toEqual({ 'Content-Type': type });
      expect(entry.file_url).toBe(`${PUBLIC_BASE_URL}/files/${entry.object_key}`);
      expect(
        entry.upload_url.startsWith(`${PUBLIC_BASE_URL}/files/upload/${entry.object_key}?`),
      ).toBe(true);
      const expiresAt = Date.parse(entry.expires_at);
      expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    }
  });

  it('answers at the alias aws/upload-url too', async () => {
    const res = await postUploadUrls(t, owner, { files: [png()] }, 'aws/upload-url');
    const [entry] = expectOk<UploadUrl[]>(res);
    expect(entry.object_key.startsWith(`${owner.uuid}/`)).toBe(true);
  });

  it('gives every key a random part, so the same file twice gets two keys', async () => {
    const res = await postUploadUrls(t, owner, { files: [png(), png()] });
    const [first, second] = expectOk<UploadUrl[]>(res);
    expect(first.object_key).not.toBe(second.object_key);
    const again = expectOk<UploadUrl[]>(await postUploadUrls(t, owner, { files: [png()] }));
    expect([first.object_key, second.object_key]).not.toContain(again[0].object_key);
  });

  it('reduces file names to safe characters and an extension of the declared type', async () => {
    const names: Array<[string, string, string]> = [
      ['../../etc/passwd', 'image/png', 'passwd.png'],
      ['C:\\Users\\me\\Ünïcōdé logo (1).PNG', 'image/png', 'Unicode-logo-1.png'],
      ['evil.html', 'image/png', 'evil.html.png'],
      ['<script>alert(1)</script>.jpg', 'image/jpeg', 'script.jpg'],
      ['.htaccess', 'image/gif', 'htaccess.gif'],
      ['日本語.webp', 'image/webp', 'file.webp'],
    ];
    const res = await postUploadUrls(t, owner, {
      files: names.map(([name, type]) => png({ file_name: name, file_type: type })),
    });
    const data = expectOk<UploadUrl[]>(res);
    data.forEach((entry, index) => {
      expect(entry.object_key).toMatch(new RegExp(`^${owner.uuid}/${KEY_RANDOM}-`));
      expect(entry.object_key.slice(owner.uuid.length + 26)).toBe(names[index][2]);
    });
  });

  it('takes the key from the token, never from a user_uuid in the body', async () => {
    const res = await postUploadUrls(t, owner, {
      user_uuid: other.uuid,
      files: [png({ user_uuid: other.uuid, owned_by: other.uuid })],
    });
    const [entry] = expectOk<UploadUrl[]>(res);
    expect(entry.object_key.startsWith(`${owner.uuid}/`)).toBe(true);
    expect(entry.object_key).not.toContain(other.uuid);
  });

  it('accepts the media type in any case and answers it in lower case', async () => {
    const res = await postUploadUrls(t, owner, { files: [png({ file_type: 'IMAGE/PNG' })] });
    const [entry] = expectOk<UploadUrl[]>(res);
    expect(entry.headers).toEqual({ 'Content-Type': 'image/png' });
  });

  it.each([
    ['below the minimum', 5, 60],
    ['zero', 0, 60],
    ['above the maximum', 86400, 3600],
    ['not given', undefined, 900],
  ])('clamps expires_in %s into 60-3600 s', async (_label, expiresIn, seconds) => {
    const before = Date.now();
    const res = await postUploadUrls(t, owner, {
      files: [png()],
      ...(expiresIn === undefined ? {} : { expires_in: expiresIn }),
    });
    const [entry] = expectOk<UploadUrl[]>(res);
    const expiresAt = Date.parse(entry.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + seconds * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + seconds * 1000);
  });

  describe('refusals', () => {
    const tooMany = Array.from({ length: 11 }, (_, i) => png({ file_name: `f${i}.png` }));

    it.each<[string, Record<string, unknown>, string]>([
      ['no files', {}, 'files'],
      ['files not an array', { files: png() }, 'files'],
      ['zero files', { files: [] }, 'files'],
      ['eleven files', { files: tooMany }, 'files'],
      ['a file that is not an object', { files: ['logo.png'] }, 'files.0'],
      ['SVG', { files: [png({ file_type: 'image/svg+xml' })] }, 'files.0.file_type'],
      ['HTML', { files: [png({ file_type: 'text/html' })] }, 'files.0.file_type'],
      ['PDF', { files: [png({ file_type: 'application/pdf' })] }, 'files.0.file_type'],
      ['no type', { files: [png({ file_type: undefined })] }, 'files.0.file_type'],
      ['size 0', { files: [png({ file_size: 0 })] }, 'files.0.file_size'],
      ['negative size', { files: [png({ file_size: -1 })] }, 'files.0.file_size'],
      ['fractional size', { files: [png({ file_size: 10.5 })] }, 'files.0.file_size'],
      ['size as text', { files: [png({ file_size: '100' })] }, 'files.0.file_size'],
      [
        'size over MAX_UPLOAD_BYTES',
        { files: [png(), png({ file_size: 5 * 1024 * 1024 + 1 })] },
        'files.1.file_size',
      ],
      ['an empty file name', { files: [png({ file_name: '' })] }, 'files.0.file_name'],
      ['no file name', { files: [png({ file_name: undefined })] }, 'files.0.file_name'],
      ['an absolute directory', { files: [png({ directory: '/etc' })] }, 'files.0.directory'],
      ['a .. directory', { files: [png({ directory: '..' })] }, 'files.0.directory'],
      [
        'a .. inside the directory',
        { files: [png({ directory: 'business/../../x' })] },
        'files.0.directory',
      ],
      ['a backslash directory', { files: [png({ directory: 'a\\..\\b' })] }, 'files.0.directory'],
      ['an empty segment', { files: [png({ directory: 'a//b' })] }, 'files.0.directory'],
      ['a hidden segment', { files: [png({ directory: 'a/.git' })] }, 'files.0.directory'],
      [
        'a directory nine segments deep',
        { files: [png({ directory: 'a/b/c/d/e/f/g/h/i' })] },
        'files.0.directory',
      ],
      ['an encoded ..', { files: [png({ directory: '%2e%2e/x' })] }, 'files.0.directory'],
      ['visibility private', { files: [png({ visibility: 'private' })] }, 'files.0.visibility'],
      ['expires_in as text', { files: [png()], expires_in: 'soon' }, 'expires_in'],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_label, body, field) => {
      const res = await postUploadUrls(t, owner, body);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it.each([
      ['names another user', (o: TestUser) => `business/logo/${o.uuid}`],
      ['names another user deeper in', (o: TestUser) => `x/${o.uuid}/logo`],
      ['names another user in upper case', (o: TestUser) => o.uuid.toUpperCase()],
    ])('refuses a directory that %s with 403 FORBIDDEN', async (_label, directory) => {
      const res = await postUploadUrls(t, owner, {
        files: [png(), png({ directory: directory(other) })],
      });
      expectError(res, 403, 'FORBIDDEN');
    });

    it('accepts the caller’s own uuid in the directory without repeating it in the key', async () => {
      const res = await postUploadUrls(t, owner, {
        files: [png({ directory: `${owner.uuid.toUpperCase()}/logo` })],
      });
      const [entry] = expectOk<UploadUrl[]>(res);
      expect(entry.object_key).toMatch(new RegExp(`^${owner.uuid}/logo/${KEY_RANDOM}-logo\\.png$`));
    });

    it('refuses a call without the API key (401 API_KEY_INVALID) or the token (401 UNAUTHENTICATED)', async () => {
      const body = { files: [png()] };
      expectError(
        await t.http
          .post(`${t.files}/cloud/upload-url`)
          .set('authorization', owner.headers.authorization)
          .send(body),
        401,
        'API_KEY_INVALID',
      );
      expectError(
        await t.http.post(`${t.files}/cloud/upload-url`).set(apiHeaders(t)).send(body),
        401,
        'UNAUTHENTICATED',
      );
      expectError(
        await t.http.post(`${t.files}/aws/upload-url`).set(apiHeaders(t)).send(body),
        401,
        'UNAUTHENTICATED',
      );
    });
  });
});
