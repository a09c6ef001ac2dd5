import { expectError, expectOk } from './support/expect';
import { entityPath, EntityResponse, newBusiness, newMenu } from './support/entity';
import { createUser, TestUser } from './support/factory';
import {
  issueUploadUrl,
  localPath,
  pngBytes,
  startS3rver,
  TestS3,
  UploadUrl,
} from './support/file';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Attaching an uploaded file to a record (entity_featured_url) with both
 * storage drivers: the entity module runs FileService.assertAttachable when
 * a record is created with a URL or updated to a new one.
 */

const MAX_UPLOAD_BYTES = 4096;

interface Driver {
  name: string;
  env(): Record<string, string>;
  /** PUTs the bytes to the upload URL with this type; resolves to the status. */
  upload(t: TestApp, entry: UploadUrl, body: Buffer, contentType: string): Promise<number>;
  /** Status of a GET of the public URL. */
  read(t: TestApp, fileUrl: string): Promise<number>;
}

let s3: TestS3;

const drivers: Driver[] = [
  {
    name: 'local',
    env: () => ({ PUBLIC_BASE_URL: 'http://files.test:8080' }),
    upload: async (t, entry, body, contentType) =>
      (await t.http.put(localPath(entry.upload_url)).set('content-type', contentType).send(body))
        .status,
    read: async (t, fileUrl) => (await t.http.get(localPath(fileUrl))).status,
  },
  {
    name: 's3 (s3rver: checks neither signatures nor policies)',
    env: () => s3.env,
    upload: async (_t, entry, body, contentType) =>
      (
        await fetch(entry.upload_url, {
          method: 'PUT',
          body,
          headers: { 'Content-Type': contentType },
        })
      ).status,
    read: async (_t, fileUrl) => (await fetch(fileUrl)).status,
  },
];

beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(() => s3?.close());

describe.each(drivers)('attaching an upload to a business, $name driver', (driver) => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ ...driver.env(), MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) });
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t?.close());

  async function uploaded(user: TestUser, bytes = pngBytes(), contentType = 'image/png') {
    const entry = await issueUploadUrl(t, user, {
      file_size: Math.min(bytes.length, MAX_UPLOAD_BYTES),
    });
    expect(await driver.upload(t, entry, bytes, contentType)).toBe(200);
    return entry;
  }

  async function recordsOf(user: TestUser): Promise<number> {
    const [row] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM entities WHERE owned_by = $1',
      [user.uuid],
    );
    return row.n;
  }

  function createBusiness(user: TestUser, url: string) {
    return t.http
      .post(entityPath(t, 'business'))
      .set(user.headers)
      .send({
        meta_key: `logo-test-${Math.random().toString(36).slice(2)}`,
        title_name: 'Logo test',
        status: 'enabled',
        entity_featured_url: url,
        extra_data: {
          business_address: '1 Test Street',
          contact_email: 'owner@example.test',
          enable_on_portal_listing: true,
          country_of_registration: 'NG',
        },
      });
  }

  it('creates a business whose entity_featured_url is the uploaded file', async () => {
    const entry = await uploaded(owner);
    const business = expectOk<EntityResponse>(await createBusiness(owner, entry.file_url), 201);
    expect(business.entity_featured_url).toBe(entry.file_url);
    expect(await driver.read(t, entry.file_url)).toBe(200);
  });

  it('accepts a URL outside our storage as it is', async () => {
    const url = 'https://images.example.com/logo.png';
    const business = expectOk<EntityResponse>(await createBusiness(owner, url), 201);
    expect(business.entity_featured_url).toBe(url);
  });

  it('updates a menu to an uploaded picture', async () => {
    const business = await newBusiness(t, owner);
    const menu = await newMenu(t, owner, business);
    const entry = await uploaded(owner);
    const res = await t.http
      .put(entityPath(t, 'business_menu', menu.uuid))
      .set(owner.headers)
      .send({ entity_featured_url: entry.file_url });
    expect(expectOk<EntityResponse>(res).entity_featured_url).toBe(entry.file_url);
  });

  it('refuses a URL whose file was never uploaded: 422, nothing stored', async () => {
    const entry = await issueUploadUrl(t, owner);
    const before = await recordsOf(owner);
    expectError(await createBusiness(owner, entry.file_url), 422, 'UNPROCESSABLE');
    expect(await recordsOf(owner)).toBe(before);
  });

  it('refuses another user’s uploaded file: 422, nothing stored, their file kept', async () => {
    const theirs = await uploaded(other);
    const before = await recordsOf(owner);
    const res = await createBusiness(owner, theirs.file_url);
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ field: 'entity_featured_url' }),
    ]);
    expect(await recordsOf(owner)).toBe(before);
    expect(await driver.read(t, theirs.file_url)).toBe(200);
  });

  it('refuses an update to a file never uploaded and keeps the record as it was', async () => {
    const first = await uploaded(owner);
    const business = await newBusiness(t, owner, { entity_featured_url: first.file_url });
    const missing = await issueUploadUrl(t, owner);
    const res = await t.http
      .put(entityPath(t, 'business', business.uuid))
      .set(owner.headers)
      .send({ entity_featured_url: missing.file_url });
    expectError(res, 422, 'UNPROCESSABLE');
    const stored = await t.http.get(entityPath(t, 'business', business.uuid)).set(owner.headers);
    expect(expectOk<EntityResponse>(stored).entity_featured_url).toBe(first.file_url);
  });

  if (driver.name.startsWith('s3')) {
    it('refuses an object stored as HTML: 422, nothing stored, the object removed', async () => {
      const entry = await uploaded(owner, Buffer.from('<script>alert(1)</script>'), 'text/html');
      const before = await recordsOf(owner);
      expectError(await createBusiness(owner, entry.file_url), 422, 'UNPROCESSABLE');
      expect(await recordsOf(owner)).toBe(before);
      expect(await driver.read(t, entry.file_url)).toBe(404);
    });

    it('refuses an object over MAX_UPLOAD_BYTES: 422, nothing stored, the object removed', async () => {
      const entry = await uploaded(owner, pngBytes(MAX_UPLOAD_BYTES));
      const before = await recordsOf(owner);
      expectError(await createBusiness(owner, entry.file_url), 422, 'UNPROCESSABLE');
      expect(await recordsOf(owner)).toBe(before);
      expect(await driver.read(t, entry.file_url)).toBe(404);
    });
  }
});
