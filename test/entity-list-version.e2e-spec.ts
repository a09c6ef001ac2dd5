import { entityPath, EntityResponse, newBusiness, newItem, newMenu } from './support/entity';
import { createTestDatabase, TestDatabase } from './support/database';
import { expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { serverOnly } from './support/server-only';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Lists of one parent's children (parent_entity_uuid): their ETag is the
 * parent's stored version, and their finished pages are reused while that
 * version holds. Every write that can change such a list, through the API or
 * straight in the database, must show at once in the next answer.
 */
describe("entities: a parent's list, by its version and the page cache", () => {
  let db: TestDatabase;
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let business: EntityResponse;
  let menu: EntityResponse;

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await startTestApp({}, { database: db });
    owner = await createUser(t);
    other = await createUser(t);
    business = await newBusiness(t, owner);
    menu = await newMenu(t, owner, business);
    for (let i = 0; i < 3; i++) {
      await newItem(t, owner, menu, {
        extra_data: { sort_position: i, private_supplier: 'Supplier Ltd' },
      });
    }
    await newItem(t, owner, menu, { status: 'disabled', extra_data: { sort_position: 9 } });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  const listQuery = (parent: string, extra: Record<string, unknown> = {}) => ({
    parent_entity_uuid: parent,
    sort_by: 'extra_data.sort_position',
    per_page: 100,
    ...extra,
  });

  /** The page of `parent`'s items as `headers` see it; with `etag`, as a client that holds it. */
  async function list(
    options: {
      parent?: string;
      headers?: Record<string, string>;
      etag?: string;
      extra?: Record<string, unknown>;
      app?: TestApp;
    } = {},
  ) {
    const app = options.app ?? t;
    const req = app.http
      .get(entityPath(app, 'business_menu_item'))
      .query(listQuery(options.parent ?? menu.uuid, options.extra))
      .set(options.headers ?? apiHeaders(app));
    if (options.etag) req.set('If-None-Match', options.etag);
    const res = await req;
    return { res, etag: res.headers.etag as string, text: res.text };
  }

  /** A full answer, read twice (the second from the cache) with the same bytes, and its ETag answered 304. */
  async function page(headers?: Record<string, string>, parent?: string) {
    const first = await list({ headers, parent });
    expect(first.res.status).toBe(200);
    const again = await list({ headers, parent });
    expect(again.text).toBe(first.text);
    expect(again.etag).toBe(first.etag);
    const held = await list({ headers, parent, etag: first.etag });
    expect(held.res.status).toBe(304);
    expect(held.text ?? '').toBe('');
    return {
      etag: first.etag,
      text: first.text,
      records: expectOk<EntityResponse[]>(first.res),
    };
  }

  /** After a write: the held ETag gets a full answer with a new ETag and the new page. */
  async function changed(before: { etag: string; text: string }, headers?: Record<string, string>) {
    const res = await list({ headers, etag: before.etag });
    expect(res.res.status).toBe(200);
    expect(res.etag).not.toBe(before.etag);
    expect(res.text).not.toBe(before.text);
    return page(headers);
  }

  const write = (method: 'put' | 'post' | 'delete', path: string, body?: object) =>
    t.http[method](path).set(owner.headers).send(body);

  it('answers each write to a child at once: create, update, trash, restore, move away and back, delete', async () => {
    let before = await page();
    const created = await newItem(t, owner, menu, {
      title_name: 'Fresh item',
      extra_data: { sort_position: 5 },
    });
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).toContain(created.uuid);

    expectOk(
      await write('put', entityPath(t, 'business_menu_item', created.uuid), {
        title_name: 'Renamed item',
      }),
    );
    before = await changed(before);
    expect(before.records.find((r) => r.uuid === created.uuid)?.title_name).toBe('Renamed item');

    expectOk(await write('delete', entityPath(t, 'business_menu_item', 'trash', created.uuid)));
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).not.toContain(created.uuid);

    expectOk(await write('post', entityPath(t, 'business_menu_item', 'restore', created.uuid)));
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).toContain(created.uuid);

    // Moved to another menu: gone from this list, and the other menu's list has it.
    const second = await newMenu(t, owner, business);
    const secondBefore = await page(undefined, second.uuid);
    expect(secondBefore.records).toEqual([]);
    expectOk(
      await write('put', entityPath(t, 'business_menu_item', created.uuid), {
        parent_entity_uuid: second.uuid,
      }),
    );
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).not.toContain(created.uuid);
    const secondAfter = await page(undefined, second.uuid);
    expect(secondAfter.etag).not.toBe(secondBefore.etag);
    expect(secondAfter.records.map((r) => r.uuid)).toEqual([created.uuid]);
    expectOk(
      await write('put', entityPath(t, 'business_menu_item', created.uuid), {
        parent_entity_uuid: menu.uuid,
      }),
    );
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).toContain(created.uuid);

    // Written straight in the database, as another process or a purge would.
    await t.dataSource.query(`UPDATE entities SET title_name = 'Written in SQL' WHERE uuid = $1`, [
      created.uuid,
    ]);
    before = await changed(before);
    expect(before.records.find((r) => r.uuid === created.uuid)?.title_name).toBe('Written in SQL');
    await t.dataSource.query('DELETE FROM entities WHERE uuid = $1', [created.uuid]);
    before = await changed(before);
    expect(before.records.map((r) => r.uuid)).not.toContain(created.uuid);
    expect(before.records.length).toBe(3);
  });

  it("never answers one caller's page or 304 to another: the other owner sees only public records, without private settings", async () => {
    const mine = await page(owner.headers);
    expect(mine.records.length).toBe(4);
    expect(mine.text).toContain('private_supplier');
    const theirs = await page(other.headers);
    expect(theirs.etag).not.toBe(mine.etag);
    expect(theirs.records.length).toBe(3);
    expect(theirs.records.every((r) => r.status === 'enabled')).toBe(true);
    expect(theirs.text).not.toContain('private_');
    // The owner's ETag sent by the other owner: their own page, never a 304.
    const crossed = await list({ headers: other.headers, etag: mine.etag });
    expect(crossed.res.status).toBe(200);
    expect(crossed.etag).toBe(theirs.etag);
    expect(crossed.text).toBe(theirs.text);
    const guest = await list({ etag: mine.etag });
    expect(guest.res.status).toBe(200);
    expect(guest.text).not.toContain('private_');
  });

  it('follows the parents: a menu moved to another business, a business trashed or deleted', async () => {
    const member = await createUser(t);
    await addMember(t, owner, business.uuid, member, 'staff');
    const seen = await page(member.headers);
    // A member of the business sees its disabled item too.
    expect(seen.records.length).toBe(4);

    const elsewhere = await newBusiness(t, owner);
    expectOk(
      await write('put', entityPath(t, 'business_menu', menu.uuid), {
        parent_entity_uuid: elsewhere.uuid,
      }),
    );
    const moved = await changed(seen, member.headers);
    expect(moved.records.length).toBe(3);
    expectOk(
      await write('put', entityPath(t, 'business_menu', menu.uuid), {
        parent_entity_uuid: business.uuid,
      }),
    );
    expect((await changed(moved, member.headers)).records.length).toBe(4);

    // The menus of a business, and the items of its menu, when the business goes to the trash.
    const menus = async () => {
      const res = await t.http
        .get(entityPath(t, 'business_menu'))
        .query({ parent_entity_uuid: business.uuid })
        .set(apiHeaders(t));
      return { etag: res.headers.etag as string, records: expectOk<EntityResponse[]>(res) };
    };
    const menusBefore = await menus();
    expect(menusBefore.records.map((r) => r.uuid)).toContain(menu.uuid);
    const itemsBefore = await page();
    expectOk(await write('delete', entityPath(t, 'business', 'trash', business.uuid)));
    const menusTrashed = await menus();
    expect(menusTrashed.etag).not.toBe(menusBefore.etag);
    expect(menusTrashed.records).toEqual([]);
    const itemsTrashed = await changed(itemsBefore);
    expect(itemsTrashed.records).toEqual([]);
    expectOk(await write('post', entityPath(t, 'business', 'restore', business.uuid)));
    const itemsBack = await changed(itemsTrashed);
    expect(itemsBack.records.length).toBe(3);

    // The business removed outright: its menu's items are no longer public.
    const gone = await newBusiness(t, owner);
    const goneMenu = await newMenu(t, owner, gone);
    await newItem(t, owner, goneMenu);
    const goneBefore = await page(undefined, goneMenu.uuid);
    expect(goneBefore.records.length).toBe(1);
    await t.dataSource.query('DELETE FROM entities WHERE uuid = $1', [gone.uuid]);
    const goneAfter = await list({ parent: goneMenu.uuid, etag: goneBefore.etag });
    expect(goneAfter.res.status).toBe(200);
    expect(expectOk<EntityResponse[]>(goneAfter.res)).toEqual([]);
  });

  it('keeps every answer of parallel creates under one parent, read while they run', async () => {
    const crowded = await newMenu(t, owner, business);
    const before = await page(undefined, crowded.uuid);
    const writes = Array.from({ length: 8 }, (_, i) =>
      newItem(t, owner, crowded, { extra_data: { sort_position: i } }),
    );
    const reads = Array.from({ length: 8 }, () => list({ parent: crowded.uuid }));
    const created = await Promise.all(writes);
    for (const read of await Promise.all(reads)) expect(read.res.status).toBe(200);
    const after = await page(undefined, crowded.uuid);
    expect(after.etag).not.toBe(before.etag);
    expect(after.records.map((r) => r.uuid).sort()).toEqual(created.map((r) => r.uuid).sort());
  });

  it('answers the same bytes and ETags with the page cache off (LIST_PAGE_CACHE_BYTES=0)', async () => {
    const callers = [undefined, owner.headers, other.headers];
    const queries = [{}, { per_page: 2, page: 2 }, { q: 'item', sort_order: 'desc' }];
    const answers: Array<{ etag: string; text: string }> = [];
    for (const headers of callers) {
      for (const extra of queries) {
        const { res, etag, text } = await list({ headers, extra });
        expect(res.status).toBe(200);
        answers.push({ etag, text });
      }
    }
    await t.close();
    t = await startTestApp({ LIST_PAGE_CACHE_BYTES: '0' }, { database: db });
    // The users' tokens stay valid: same secret, same database.
    let index = 0;
    for (const headers of callers) {
      for (const extra of queries) {
        const { etag, text } = await list({ headers, extra });
        expect({ etag, text }).toEqual(answers[index++]);
        expect((await list({ headers, extra, etag })).res.status).toBe(304);
      }
    }
    // Without the cache, a write is answered at once too.
    const before = await page();
    await newItem(t, owner, menu, { extra_data: { sort_position: 7 } });
    expect((await changed(before)).records.length).toBe(before.records.length + 1);
  });

  // Last: a second app in this process takes over the Bearer token checks until it closes.
  serverOnly(
    'answers a write through another process at once, from a page it had kept',
    async () => {
      const replica = await startTestApp({}, { database: db });
      try {
        const kept = await list({ app: replica });
        expect((await list({ app: replica })).text).toBe(kept.text);
        const created = await newItem(t, owner, menu, { extra_data: { sort_position: 8 } });
        const fresh = await list({ app: replica, etag: kept.etag });
        expect(fresh.res.status).toBe(200);
        expect(fresh.etag).not.toBe(kept.etag);
        expect(expectOk<EntityResponse[]>(fresh.res).map((r) => r.uuid)).toContain(created.uuid);
        expect((await list({ etag: fresh.etag })).res.status).toBe(304);
      } finally {
        await replica.close();
      }
    },
  );
});
