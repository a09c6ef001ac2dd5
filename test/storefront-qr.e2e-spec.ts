import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { entityPath, newCatalog } from './support/entity';
import { expectError } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

const FRONT_URL = 'https://menu.example.test';

// R38: storefront qr code.
describe('print-ready storefront QR codes', () => {
  let t: TestApp;
  let owner: TestUser;
  const business = `Café & Co ${Date.now()}`;
  const menu = 'Lunch menu/2';
  const expected = `${FRONT_URL}/app/${encodeURIComponent(business)}/menu/${encodeURIComponent(menu)}`;
  const path = (b = business, m = menu, file = 'qr.png') =>
    `${t.core}/storefront/${encodeURIComponent(b)}/menu/${encodeURIComponent(m)}/${file}`;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL: `${FRONT_URL}/` });
    owner = await createUser(t);
    await newCatalog(t, owner, { business: { meta_key: business }, menu: { meta_key: menu } });
  });
  afterAll(() => t?.close());

  function decode(png: Buffer, size: number): string | undefined {
    const image = PNG.sync.read(png);
    expect(image.width).toBe(size);
    expect(image.height).toBe(size);
    return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
  }

  it('answers a PNG, without a key, that decodes to the storefront address with percent-encoded names', async () => {
    const res = await t.http.get(path()).query({ size: 300 }).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(decode(res.body as Buffer, 300)).toBe(expected);

    // The default size; the meta_keys match ignoring case and print the stored spelling.
    const other = await t.http.get(path(business.toUpperCase())).buffer(true);
    expect(other.status).toBe(200);
    expect(decode(other.body as Buffer, 512)).toBe(expected);

    const again = await t.http
      .get(path())
      .query({ size: 300 })
      .set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
  });

  it('answers an SVG', async () => {
    const res = await t.http.get(path(business, menu, 'qr.svg')).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(String(res.body)).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it.each(['127', '2049', 'big', '512.5'])('refuses size=%s with 400', async (size) => {
    const res = await t.http.get(path()).query({ size });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('size');
  });

  it('answers 404 for a menu that is not public, or does not exist', async () => {
    const hidden = await newCatalog(t, owner, { menu: { status: 'disabled' } });
    for (const file of ['qr.png', 'qr.svg']) {
      expectError(
        await t.http.get(path(hidden.business.meta_key!, hidden.menu.meta_key!, file)),
        404,
        'NOT_FOUND',
      );
      expectError(await t.http.get(path(business, 'no-such-menu', file)), 404, 'NOT_FOUND');
    }
    // Trashing the business hides its menus too.
    const gone = await newCatalog(t, owner);
    const trash = await t.http
      .post(entityPath(t, 'business', 'trash', gone.business.uuid))
      .set(owner.headers);
    expect(trash.status).toBeLessThan(300);
    expectError(
      await t.http.get(path(gone.business.meta_key!, gone.menu.meta_key!)),
      404,
      'NOT_FOUND',
    );
  });
});
