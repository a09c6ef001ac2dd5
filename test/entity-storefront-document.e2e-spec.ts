import { gunzipSync } from 'node:zlib';
import { Response } from 'supertest';
import { StorefrontService } from '../src/entity/storefront.service';
import { answerOf, envelopeOf, makeDocument } from '../src/entity/storefront-document';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The finished storefront kept per storefront URL in the database: marked
 * stale by every write to one of its records, rebuilt by the next read,
 * answered 304 to a client holding its ETag.
 */
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

/** The SELECT statements that read the entities table while `work` runs. */
async function recordReadsDuring(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(t.dataSource, 'query');
  try {
    await work();
    return spy.mock.calls
      .map(([sql]) => String(sql))
      .filter((sql) => /^\s*SELECT/i.test(sql) && /\bentities\b/.test(sql)).length;
  } finally {
    spy.mockRestore();
  }
}

async function storedBody(t: TestApp, catalog: Catalog): Promise<{ body: string; fresh: boolean }> {
  const rows: Array<{ body: string; fresh: boolean }> = await t.dataSource.query(
    `SELECT convert_from(body, 'UTF8') AS body, version = built_version AS fresh
       FROM storefront_documents WHERE business_key = lower($1) AND menu_key = lower($2)`,
    [catalog.business.meta_key, catalog.menu.meta_key],
  );
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe('stored storefront documents', () => {
  for (const ttl of ['0', '60000']) {
    describe(`with STOREFRONT_CACHE_TTL_MS=${ttl}`, () => {
      let t: TestApp;
      let owner: TestUser;

      beforeAll(async () => {
        t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: ttl });
        owner = await createUser(t);
      });
      afterAll(() => t?.close());

      it('answers 304 with no body to a matching If-None-Match without reading the records, and a changed record changes the ETag', async () => {
        const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Akara' }] });
        const first = await getStorefront(t, catalog);
        expect(titles(first)).toEqual(['Akara']);
        const etag = first.headers.etag;

        let again: Response | undefined;
        const reads = await recordReadsDuring(t, async () => {
          again = await getStorefront(t, catalog, { 'if-none-match': etag });
        });
        expect(again!.status).toBe(304);
        expect(again!.text).toBe('');
        expect(again!.headers.etag).toBe(etag);
        expect(reads).toBe(0);

        // Another client's ETag, or none that matches: the whole answer.
        const other = await getStorefront(t, catalog, { 'if-none-match': 'W/"1-nope"' });
        expect(other.status).toBe(200);
        expect(titles(other)).toEqual(['Akara']);

        expectOk(
          await t.http
            .put(entityPath(t, 'business_menu_item', catalog.items[0].uuid))
            .set(owner.headers)
            .send({ title_name: 'Akara, hot' }),
        );
        const changed = await getStorefront(t, catalog, { 'if-none-match': etag });
        expect(changed.status).toBe(200);
        expect(changed.headers.etag).not.toBe(etag);
        expect(titles(changed)).toEqual(['Akara, hot']);
      });

      it('gives readers arriving together one answer, and every read after a write the new one', async () => {
        const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Moi moi' }] });
        const together = await Promise.all(
          Array.from({ length: 20 }, () => getStorefront(t, catalog)),
        );
        expect(new Set(together.map((res) => res.headers.etag)).size).toBe(1);
        for (const res of together) expect(titles(res)).toEqual(['Moi moi']);

        expectOk(
          await t.http
            .put(entityPath(t, 'business_menu_item', catalog.items[0].uuid))
            .set(owner.headers)
            .send({ title_name: 'Moi moi, two' }),
        );
        const after = await Promise.all(
          Array.from({ length: 20 }, () => getStorefront(t, catalog)),
        );
        for (const res of after) {
          expect(titles(res)).toEqual(['Moi moi, two']);
          expect(res.headers.etag).not.toBe(together[0].headers.etag);
        }
      });

      it('sends the same answer plain and gzipped', async () => {
        const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Ẹ̀fọ́ riro' }, {}] });
        const plain = await getStorefront(t, catalog, { 'accept-encoding': 'identity' });
        const zipped = await t.http
          .get(storefrontPath(t, catalog))
          .set({ ...apiHeaders(t), 'accept-encoding': 'gzip' })
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          });
        expect(zipped.headers['content-encoding']).toBe('gzip');
        expect(zipped.headers.etag).toBe(plain.headers.etag);
        // The client has gunzipped it (and checked its CRC and length).
        expect(JSON.parse((zipped.body as Buffer).toString())).toEqual(plain.body);
      });

      it('leaves the stored document equal to a fresh build after a burst of 100 item edits', async () => {
        const catalog = await newCatalog(t, owner, {
          items: Array.from({ length: 5 }, (_, i) => ({
            title_name: `Item ${i}`,
            extra_data: { sort_position: i },
          })),
        });
        expect(titles(await getStorefront(t, catalog))).toHaveLength(5);
        // Edits in parallel batches, with reads of the storefront racing them.
        for (let round = 0; round < 10; round++) {
          await Promise.all([
            ...catalog.items.flatMap((item, i) =>
              [0, 1].map((k) =>
                t.http
                  .put(entityPath(t, 'business_menu_item', item.uuid))
                  .set(owner.headers)
                  .send({ title_name: `Item ${i} r${round} e${k}` })
                  .then((res) => expectOk(res)),
              ),
            ),
            getStorefront(t, catalog).then((res) => expectOk(res)),
            getStorefront(t, catalog).then((res) => expectOk(res)),
          ]);
        }
        const afterBurst = await getStorefront(t, catalog, { 'accept-encoding': 'identity' });
        const list = expectOk<Array<{ uuid: string; title_name: string }>>(
          await t.http
            .get(entityPath(t, 'business_menu_item'))
            .query({
              parent_entity_uuid: catalog.menu.uuid,
              sort_by: 'extra_data.sort_position',
              per_page: 100,
            })
            .set(apiHeaders(t)),
        );
        expect(titles(afterBurst)).toEqual(list.map((item) => item.title_name));

        const stored = await storedBody(t, catalog);
        expect(stored.fresh).toBe(true);
        // The stored document is the answer without the fields computed at answer time.
        const answered = JSON.parse(afterBurst.text);
        expect(answered.data).toMatchObject({ open_now: true, next_change_at: null });
        delete answered.data.open_now;
        delete answered.data.next_change_at;
        delete answered.data.availability;
        delete answered.data.estimated_wait_minutes;
        expect(stored.body).toBe(JSON.stringify(answered));
        const fresh = await t.app
          .get(StorefrontService)
          .build(catalog.business.meta_key!, catalog.menu.meta_key!);
        const freshBody = Buffer.concat([fresh.document.prefix!, fresh.document.suffix]);
        expect(freshBody.toString()).toBe(stored.body);
      });

      it('follows a business, menu or item through trash, restore and a new meta_key', async () => {
        const catalog = await newCatalog(t, owner, { items: [{ title_name: 'Suya' }] });
        expect(titles(await getStorefront(t, catalog))).toEqual(['Suya']);

        const trash = (suffix: 'business' | 'business_menu', uuid: string) =>
          t.http.post(entityPath(t, suffix, 'trash', uuid)).set(owner.headers);
        const restore = (suffix: 'business' | 'business_menu', uuid: string) =>
          t.http.post(entityPath(t, suffix, 'restore', uuid)).set(owner.headers);

        expectOk(await trash('business_menu', catalog.menu.uuid));
        expectError(await getStorefront(t, catalog), 404, 'NOT_FOUND');
        expectOk(await restore('business_menu', catalog.menu.uuid));
        expect(titles(await getStorefront(t, catalog))).toEqual(['Suya']);

        expectOk(await trash('business', catalog.business.uuid));
        expectError(await getStorefront(t, catalog), 404, 'NOT_FOUND');
        expectOk(await restore('business', catalog.business.uuid));
        expect(titles(await getStorefront(t, catalog))).toEqual(['Suya']);

        const renamed = `${catalog.business.meta_key}-new`;
        expectOk(
          await t.http
            .put(entityPath(t, 'business', catalog.business.uuid))
            .set(owner.headers)
            .send({ meta_key: renamed }),
        );
        expectError(await getStorefront(t, catalog), 404, 'NOT_FOUND');
        const moved = { ...catalog, business: { ...catalog.business, meta_key: renamed } };
        expect(titles(await getStorefront(t, moved))).toEqual(['Suya']);

        // Disabling the item takes it out; a write straight to the table counts as well.
        await t.dataSource.query(`UPDATE entities SET status = 'disabled' WHERE uuid = $1`, [
          catalog.items[0].uuid,
        ]);
        if (ttl === '0') expect(titles(await getStorefront(t, moved))).toEqual([]);
      });
    });
  }
});

describe('storefront document bytes', () => {
  it('splices answer-time fields into data, plain and gzipped alike, with their own ETag', async () => {
    const data = { business: { title_name: 'Ọ̀rẹ́' }, items: [1, 2], items_truncated: false };
    const document = await makeDocument(data, 'Storefront found', {});
    expect(document.prefix.toString() + document.suffix.toString()).toBe(
      envelopeOf(data, 'Storefront found').body.toString(),
    );

    const plain = answerOf(document, { fields: {}, validUntilMs: null });
    expect(JSON.parse(plain.body!.toString())).toEqual({
      status: true,
      message: 'Storefront found',
      data,
    });
    expect(gunzipSync(plain.gzipped!).toString()).toBe(plain.body!.toString());

    const timed = answerOf(document, {
      fields: { open_now: true, next_change_at: '2026-01-01T22:00:00.000Z' },
      validUntilMs: 1,
    });
    expect(JSON.parse(timed.body!.toString()).data).toEqual({
      ...data,
      open_now: true,
      next_change_at: '2026-01-01T22:00:00.000Z',
    });
    expect(gunzipSync(timed.gzipped!).toString()).toBe(timed.body!.toString());
    expect(timed.etag).not.toBe(plain.etag);
    expect(timed.validUntilMs).toBe(1);
  });
});
