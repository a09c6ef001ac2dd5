import { Clock } from '../src/common/clock';
import { FileService } from '../src/file/file.service';
import { expectError } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { issueUploadUrl, pngBytes, startS3rver, storedFiles, TestS3 } from './support/file';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The s3 driver against s3rver (in process, loopback). s3rver enforces the
 * access key and the expiry of presigned URLs but checks neither V4
 * signatures nor POST policies, so these tests prove the happy path, the
 * expiry and our own attach-time checks, not S3's signature checking.
 */

const MAX_UPLOAD_BYTES = 4096;

async function put(url: string, body: Buffer, contentType: string): Promise<Response> {
  return fetch(url, { method: 'PUT', body, headers: { 'Content-Type': contentType } });
}

describe('s3 storage driver against s3rver', () => {
  let s3: TestS3;
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let files: FileService;

  beforeAll(async () => {
    s3 = await startS3rver();
    t = await startTestApp({ ...s3.env, MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    owner = await createUser(t);
    other = await createUser(t);
    files = t.app.get(FileService);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });
  afterEach(() => t.app.get(Clock).reset());

  it('presigns a PUT that stores the file, readable byte for byte at the public URL', async () => {
    const bytes = pngBytes(1500);
    const entry = await issueUploadUrl(t, owner, { file_size: bytes.length }, 600);
    expect(entry.file_url).toBe(`${s3.endpoint}/${s3.bucket}/${entry.object_key}`);
    expect(entry.upload_url.startsWith(`${s3.endpoint}/${s3.bucket}/${entry.object_key}?`)).toBe(
      true,
    );
    const query = new URL(entry.upload_url).searchParams;
    expect(query.get('X-Amz-Expires')).toBe('600');
    expect(query.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(entry.headers).toEqual({ 'Content-Type': 'image/png' });

    expect((await put(entry.upload_url, bytes, 'image/png')).status).toBe(200);
    const got = await fetch(entry.file_url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(Buffer.compare(Buffer.from(await got.arrayBuffer()), bytes)).toBe(0);

    await expect(files.assertAttachable(entry.file_url, owner.uuid)).resolves.toBeUndefined();
    // Nothing goes to the local disk with this driver.
    expect(storedFiles(t)).toEqual([]);
  });

  it('issues URLs that the store refuses once expired', async () => {
    const clock = t.app.get(Clock);
    clock.set(new Date(Date.now() - 2 * 3600_000));
    const entry = await issueUploadUrl(t, owner, {}, 3600);
    clock.reset();
    expect(Date.parse(entry.expires_at)).toBeLessThan(Date.now());

    const res = await put(entry.upload_url, pngBytes(), 'image/png');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
    expect((await fetch(entry.file_url)).status).toBe(404);
  });

  it('does not serve the local driver routes', async () => {
    const entry = await issueUploadUrl(t, owner);
    expectError(
      await t.http
        .put(`/files/upload/${entry.object_key}?signature=x`)
        .set('content-type', 'image/png')
        .send(pngBytes()),
      404,
      'NOT_FOUND',
    );
    expectError(await t.http.get(`/files/${entry.object_key}`), 404, 'NOT_FOUND');
  });

  describe('attach-time check (a presigned PUT binds neither type nor size)', () => {
    it('refuses an object stored with a disallowed type, and removes it', async () => {
      const entry = await issueUploadUrl(t, owner);
      const html = Buffer.from('<script>alert(document.cookie)</script>');
      expect((await put(entry.upload_url, html, 'text/html')).status).toBe(200);
      expect((await fetch(entry.file_url)).status).toBe(200);

      await expect(files.assertAttachable(entry.file_url, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
        details: [expect.objectContaining({ field: 'entity_featured_url' })],
      });
      expect((await fetch(entry.file_url)).status).toBe(404);
    });

    it('refuses an object of another allowed type than the one issued, and removes it', async () => {
      const entry = await issueUploadUrl(t, owner);
      expect((await put(entry.upload_url, pngBytes(), 'image/gif')).status).toBe(200);
      await expect(files.assertAttachable(entry.file_url, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
      });
      expect((await fetch(entry.file_url)).status).toBe(404);
    });

    it('refuses an object over MAX_UPLOAD_BYTES, and removes it', async () => {
      const entry = await issueUploadUrl(t, owner, { file_size: MAX_UPLOAD_BYTES });
      const bytes = pngBytes(MAX_UPLOAD_BYTES);
      expect((await put(entry.upload_url, bytes, 'image/png')).status).toBe(200);
      await expect(files.assertAttachable(entry.file_url, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
      });
      expect((await fetch(entry.file_url)).status).toBe(404);
    });

    it('refuses a URL whose object was never uploaded', async () => {
      const entry = await issueUploadUrl(t, owner);
      await expect(files.assertAttachable(entry.file_url, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
      });
    });

    it('refuses another user’s object without touching it', async () => {
      const entry = await issueUploadUrl(t, other);
      expect((await put(entry.upload_url, pngBytes(), 'image/png')).status).toBe(200);
      await expect(files.assertAttachable(entry.file_url, owner.uuid)).rejects.toMatchObject({
        code: 'UNPROCESSABLE',
      });
      expect((await fetch(entry.file_url)).status).toBe(200);
      await expect(files.assertAttachable(entry.file_url, other.uuid)).resolves.toBeUndefined();
    });

    it('leaves URLs outside the bucket alone', async () => {
      await expect(
        files.assertAttachable('https://images.example.com/logo.png', owner.uuid),
      ).resolves.toBeUndefined();
      await expect(
        files.assertAttachable(`${s3.endpoint}/another-bucket/x.png`, owner.uuid),
      ).resolves.toBeUndefined();
    });
  });
});
