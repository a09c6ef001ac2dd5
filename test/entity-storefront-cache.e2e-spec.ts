import { Response } from 'supertest';
import { Clock } from '../src/common/clock';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

/**
 * How the storefront answer is cached and sent: prepared bytes with an
 * ETag, one build shared by concurrent misses, a busy entry refreshed before
 * it expires, and nothing of this with the cache turned off.
 */
const CACHE_TTL_MS = 60_000;
const REFRESH_WAIT_MS = 10_000;

function storefrontPath(t: TestApp, catalog: Catalog): string {
  return `${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`;
}

function getStorefront(t: TestApp, catalog: Catalog, headers: Record<string, string> = {}) {
  return t.http.get(storefrontPath(t, catalog)).set({ ...apiHeaders(t), ...headers });
}

function titles(res: Response): string[] {
  return expectOk<{ items: Array<{ title_name: string }> }>(res).items.map(
    (item) => item.title_name,
  );
}

/** The SELECT statements run while `work` runs (those of transactions included). */
async function selectsDuring(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  // Every statement, those of an EntityManager included, goes through the data source.
  const spy = jest.spyOn(t.dataSource, 'query');
  try {
    await work();
    return spy.mock.calls.map(([sql]) => String(sql)).filter((sql) => /^\s*SELECT/i.test(sql));
  } finally {
    spy.mockRestore();
  }
}

/** How many of these statements read `table`. */
function reading(statements: string[], table: string): number {
  return statements.filter((sql) => new RegExp(`\\b${table}\\b`).test(sql)).length;
}

/** Counts the statements that read the entities table while `work` runs. */
async function queriesDuring(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  return reading(await selectsDuring(t, work), 'entities');
}

describe('storefront cache and answer', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: String(CACHE_TTL_MS) });
    owner = await createUser(t);
  });
  afterAll(() => t?.close());
  afterEach(() => t.app.get(Clock).reset());

  it('answers the envelope as JSON with an ETag, and 304 to a matching If-None-Match', async () => {
    const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Suya' }] });
    const first = await getStorefront(t, catalog);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-request-id']).toBeTruthy();
    expect(first.body).toEqual({
      status: true,
      message: 'Storefront found',
      data: expect.objectContaining({ items_truncated: false }),
    });
    expect(titles(first)).toEqual(['Suya']);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);

    const again = await getStorefront(t, catalog, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', catalog.items[0].uuid))
        .set(owner.headers)
        .send({ title_name: 'Suya, spicy' }),
    );
    const changed = await getStorefront(t, catalog, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(titles(changed)).toEqual(['Suya, spicy']);
  });

  it('sends a cached answer gzipped to a client that accepts it, and plain to one that does not', async () => {
    const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Moi moi' }] });
    const zipped = await getStorefront(t, catalog, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    const plain = await getStorefront(t, catalog, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zipped.body).toEqual(plain.body);
    expect(titles(zipped)).toEqual(['Moi moi']);
    expect(Number(zipped.headers['content-length'])).toBeLessThan(
      Number(plain.headers['content-length']),
    );
    expect(zipped.headers.etag).toBe(plain.headers.etag);
  });

  it('still answers refusals in the error envelope', async () => {
    const catalog = await newCatalog(t, owner, { items: [] });
    const res = await t.http
      .get(`${t.core}/storefront/${catalog.business.meta_key}/menu/no-such-menu`)
      .set(apiHeaders(t));
    expectError(res, 404, 'NOT_FOUND');
    expectError(await t.http.get(storefrontPath(t, catalog)), 401, 'API_KEY_INVALID');
  });

  it('lets concurrent misses of one storefront share a single build', async () => {
    const catalog = await newCatalog(t, owner, { items: [{}, {}] });
    let answers: Response[] = [];
    const queries = await queriesDuring(t, async () => {
      answers = await Promise.all(Array.from({ length: 8 }, () => getStorefront(t, catalog)));
    });
    for (const res of answers) expect(titles(res)).toEqual(titles(answers[0]));
    expect(queries).toBeLessThanOrEqual(3);
  });

  it('rebuilds an entry read past half its TTL in the background, and never answers it past the TTL', async () => {
    const catalog = await newCatalog(t, owner, { items: [{ title_name: 'before' }] });
    expect(titles(await getStorefront(t, catalog))).toEqual(['before']);
    await t.dataSource.query(`UPDATE entities SET title_name = 'changed' WHERE uuid = $1`, [
      catalog.items[0].uuid,
    ]);
    const clock = t.app.get(Clock);

    clock.advance(CACHE_TTL_MS * 0.25);
    expect(titles(await getStorefront(t, catalog))).toEqual(['before']);

    // Past half the TTL: this read is still answered from the cache and starts a rebuild.
    clock.advance(CACHE_TTL_MS * 0.3);
    expect(titles(await getStorefront(t, catalog))).toEqual(['before']);
    const deadline = Date.now() + REFRESH_WAIT_MS;
    let seen = ['before'];
    while (seen[0] === 'before' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = titles(await getStorefront(t, catalog));
    }
    expect(seen).toEqual(['changed']);

    // The rebuilt entry lives a full TTL from its rebuild, and not longer.
    await t.dataSource.query(`UPDATE entities SET title_name = 'changed again' WHERE uuid = $1`, [
      catalog.items[0].uuid,
    ]);
    clock.advance(CACHE_TTL_MS * 0.4);
    expect(titles(await getStorefront(t, catalog))).toEqual(['changed']);
    clock.advance(CACHE_TTL_MS * 0.7);
    expect(titles(await getStorefront(t, catalog))).toEqual(['changed again']);
  });
  it('keeps an expired answer again once the database confirms it is current, reading none of its bytes', async () => {
    const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Akara' }] });
    const first = await getStorefront(t, catalog, { 'accept-encoding': 'gzip' });
    t.app.get(Clock).advance(CACHE_TTL_MS + 1);
    let confirmed: Response | undefined;
    const confirm = await selectsDuring(t, async () => {
      confirmed = await getStorefront(t, catalog, { 'accept-encoding': 'gzip' });
    });
    expect(titles(confirmed!)).toEqual(['Akara']);
    expect(confirmed!.headers.etag).toBe(first.headers.etag);
    expect(reading(confirm, 'storefront_documents')).toBe(1);
    expect(confirm.filter((sql) => /convert_from|gzip_prefix/.test(sql))).toEqual([]);
    expect(reading(confirm, 'entities')).toBe(0);
    // Kept again for a TTL: the next read asks nothing of the database.
    expect(await selectsDuring(t, () => getStorefront(t, catalog))).toEqual([]);
  });
});

describe('storefront with STOREFRONT_CACHE_TTL_MS=0', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '0' });
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  it('reads the stored document for every request, and builds it once after a write', async () => {
    const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Puff-puff' }] });
    expect(titles(await getStorefront(t, catalog))).toEqual(['Puff-puff']);
    const reads = await selectsDuring(t, async () => {
      for (let i = 0; i < 4; i++)
        expect(titles(await getStorefront(t, catalog))).toEqual(['Puff-puff']);
    });
    expect(reading(reads, 'storefront_documents')).toBe(4);
    expect(reading(reads, 'entities')).toBe(0);

    // A write the service did not make (no cache to drop) still marks the document stale.
    await t.dataSource.query(`UPDATE entities SET title_name = 'Chin chin' WHERE uuid = $1`, [
      catalog.items[0].uuid,
    ]);
    let res: Response | undefined;
    const rebuilt = await queriesDuring(t, async () => {
      res = await getStorefront(t, catalog, { 'accept-encoding': 'gzip' });
    });
    expect(rebuilt).toBe(3);
    expect(titles(res!)).toEqual(['Chin chin']);
    expect(res!.headers.etag).toMatch(/^W\//);
    // The stored gzip form is sent as it is: nothing is compressed per request.
    expect(res!.headers['content-encoding']).toBe('gzip');
  });

  it('answers storefronts asked for at once each with its own, and never one older than a write that answered', async () => {
    const catalogs = await Promise.all(
      ['Ewa agoyin', 'Ofada'].map((title) =>
        newCatalog(t, owner, { items: [{ title_name: title }] }),
      ),
    );
    const readAll = () =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          getStorefront(t, catalogs[i % 2], i % 3 ? { 'accept-encoding': 'gzip' } : {}),
        ),
      );
    for (const [i, res] of (await readAll()).entries()) {
      expect(titles(res)).toEqual([['Ewa agoyin', 'Ofada'][i % 2]]);
    }
    const [first] = catalogs;
    const reads = readAll();
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', first.items[0].uuid))
        .set(owner.headers)
        .send({ title_name: 'Ewa agoyin, with bread' }),
    );
    await reads;
    for (const [i, res] of (await readAll()).entries()) {
      expect(titles(res)).toEqual([['Ewa agoyin, with bread', 'Ofada'][i % 2]]);
    }
  });
});
