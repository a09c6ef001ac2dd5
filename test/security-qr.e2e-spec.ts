import { Response } from 'supertest';
import { Clock } from '../src/common/clock';
import { QrRenderer } from '../src/entity/qr-renderer';
import { entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { randomIp } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/** Reads a binary body whatever its content type. */
function binary(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

function freshMinute(minutesAhead: number): Date {
  return new Date(Math.ceil(Date.now() / 60_000) * 60_000 + minutesAhead * 60_000);
}

// R73: costly public answers are bounded.
describe('QR codes and table sheets are bounded: stable, cached, limited', () => {
  let t: TestApp;
  let clock: Clock;
  let owner: TestUser;
  let business: { uuid: string; meta_key: string | null; extra_data: Record<string, unknown> };
  let menu: string;
  let renders: jest.SpyInstance;
  let minute = 0;

  beforeAll(async () => {
    t = await startTestApp({ FRONT_URL: 'https://menu.example.test' });
    clock = t.app.get(Clock);
    owner = await createUser(t);
    const catalog = await newCatalog(t, owner, { business: { title_name: 'Bistro Verde' } });
    business = catalog.business;
    menu = catalog.menu.meta_key!;
    renders = jest.spyOn(t.app.get(QrRenderer), 'render');
  });
  beforeEach(() => {
    clock.set(freshMinute((minute += 2)));
    renders.mockClear();
  });
  afterAll(() => {
    clock?.reset();
    return t?.close();
  });

  const path = (file: string) => `${t.core}/storefront/${business.meta_key}/menu/${menu}/${file}`;
  const get = (file: string, query: Record<string, string>, ip: string, etag?: string) =>
    t.http
      .get(path(file))
      .query(query)
      .set({ 'x-forwarded-for': ip, ...(etag ? { 'if-none-match': etag } : {}) })
      .buffer(true)
      .parse(binary);

  const artefacts: Array<[string, Record<string, string>]> = [
    ['qr.svg', { table: 'A1' }],
    ['qr.png', { size: '256' }],
    ['qr-sheet.pdf', { tables: '1-12', label: 'Table' }],
  ];

  it.each(artefacts)(
    '%s: the same bytes and ETag for the same inputs, 304 for a held ETag, rendered once',
    async (file, query) => {
      const ip = randomIp();
      const first = await get(file, query, ip);
      expect(first.status).toBe(200);
      const again = await get(file, query, ip);
      expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('public, max-age=3600');
      // Simultaneous requests share the one rendering too.
      await Promise.all([1, 2, 3].map(() => get(file, query, ip)));
      expect(renders).toHaveBeenCalledTimes(1);

      const held = await get(file, query, ip, first.headers.etag);
      expect(held.status).toBe(304);
      expect((held.body as Buffer).length).toBe(0);
      expect(held.headers.etag).toBe(first.headers.etag);
      expect(renders).toHaveBeenCalledTimes(1);
    },
  );

  it('the sheet carries no creation date, and a new title is a new sheet and a new ETag', async () => {
    const ip = randomIp();
    const query = { tables: '1-4' };
    const before = await get('qr-sheet.pdf', query, ip);
    const pdf = (before.body as Buffer).toString('latin1');
    expect(pdf).not.toMatch(/CreationDate|ModDate/);
    expectOk(
      await t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(owner.headers)
        .send({ title_name: 'Bistro Rosso' }),
    );
    const after = await get('qr-sheet.pdf', query, ip, before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((after.body as Buffer).toString('latin1')).not.toBe(pdf);
  });

  it('another process with the same records renders the same bytes and ETag', async () => {
    const other = await startTestApp({ FRONT_URL: 'https://menu.example.test' });
    try {
      const otherOwner = await createUser(other);
      const current = await get('qr-sheet.pdf', { tables: '1-6' }, randomIp());
      await newCatalog(other, otherOwner, {
        business: { meta_key: business.meta_key, title_name: await storedTitle(business.uuid) },
        menu: { meta_key: menu, title_name: await storedTitle(business.uuid, menu) },
      });
      for (const [file, query] of [...artefacts, ['qr-sheet.pdf', { tables: '1-6' }]] as const) {
        const here =
          file === 'qr-sheet.pdf' && query.tables === '1-6'
            ? current
            : await get(file, query, randomIp());
        const there = await other.http
          .get(path(file))
          .query(query)
          .set({ 'x-forwarded-for': randomIp() })
          .buffer(true)
          .parse(binary);
        expect(there.status).toBe(200);
        expect(there.headers.etag).toBe(here.headers.etag);
        expect(Buffer.compare(there.body as Buffer, here.body as Buffer)).toBe(0);
      }
    } finally {
      await other.close();
    }
  });

  /** The stored title of the business, or of its menu with this meta_key. */
  async function storedTitle(businessUuid: string, menuKey?: string): Promise<string> {
    const [row] = await t.dataSource.query(
      menuKey === undefined
        ? 'SELECT title_name FROM entities WHERE uuid = $1'
        : 'SELECT title_name FROM entities WHERE parent_entity_uuid = $1 AND meta_key = $2',
      menuKey === undefined ? [businessUuid] : [businessUuid, menuKey],
    );
    return row.title_name;
  }

  it('limits the images to 120 a minute per IP, simultaneous requests counted exactly', async () => {
    const ip = randomIp();
    const first = await get('qr.svg', {}, ip);
    const answers = await Promise.all(
      Array.from({ length: 130 }, (_, i) =>
        get(i % 2 ? 'qr.png' : 'qr.svg', {}, ip, i % 2 ? undefined : first.headers.etag),
      ),
    );
    const refused = answers.filter((res) => res.status === 429);
    // 119 of the 130 fit beside the first request.
    expect(answers.length - refused.length).toBe(119);
    for (const res of refused) {
      expect(JSON.parse((res.body as Buffer).toString()).error.code).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect((await get('qr.svg', {}, randomIp())).status).toBe(200);
    // The sheet has its own allowance.
    expect((await get('qr-sheet.pdf', { tables: '1' }, ip)).status).toBe(200);
    clock.advance(60_000);
    expect((await get('qr.svg', {}, ip)).status).toBe(200);
  });

  it('limits the sheet to 30 a minute per IP', async () => {
    const ip = randomIp();
    const answers = await Promise.all(
      Array.from({ length: 35 }, () => get('qr-sheet.pdf', { tables: '1-2' }, ip)),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(30);
    expect(answers.filter((res) => res.status === 429)).toHaveLength(5);
    expect((await get('qr-sheet.pdf', { tables: '1-2' }, randomIp())).status).toBe(200);
    // A refused request renders nothing: one rendering served the 30.
    expect(renders).toHaveBeenCalledTimes(1);
  });

  it('counts refusals too: a stranger cannot probe storefronts faster than the limit', async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      const res = await t.http
        .get(`${t.core}/storefront/no-such-${i}/menu/none/qr-sheet.pdf`)
        .query({ tables: '1' })
        .set({ 'x-forwarded-for': ip });
      expectError(res, 404, 'NOT_FOUND');
    }
    expectError(
      await t.http.get(path('qr-sheet.pdf')).query({ tables: '1' }).set({ 'x-forwarded-for': ip }),
      429,
      'RATE_LIMITED',
    );
  });
});
