import { entityPath, EntityResponse, newBusiness, newItem, newMenu } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

/** Conditional GETs of list pages: an ETag per query and caller, 304 while nothing listed changed. */
describe('entities: list ETag and If-None-Match', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let business: EntityResponse;
  let menu: EntityResponse;
  let items: EntityResponse[];

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    other = await createUser(t);
    business = await newBusiness(t, owner);
    menu = await newMenu(t, owner, business);
    items = [];
    for (let i = 0; i < 3; i++) {
      items.push(await newItem(t, owner, menu, { extra_data: { sort_position: i } }));
    }
  });
  afterAll(() => t?.close());

  const query = (extra: Record<string, unknown> = {}) => ({
    parent_entity_uuid: menu.uuid,
    sort_by: 'extra_data.sort_position',
    per_page: 100,
    ...extra,
  });

  /** GET the page; with `etag`, as a client that holds that answer. */
  async function get(
    etag?: string,
    headers: Record<string, string> = apiHeaders(t),
    extra: Record<string, unknown> = {},
  ) {
    const req = t.http.get(entityPath(t, 'business_menu_item')).query(query(extra)).set(headers);
    if (etag) req.set('If-None-Match', etag);
    const res = await req;
    return { res, etag: res.headers.etag as string };
  }

  /** The current ETag, checked to be answered 304 with no body when sent back. */
  async function current(headers: Record<string, string> = apiHeaders(t)): Promise<string> {
    const first = await get(undefined, headers);
    expect(first.res.status).toBe(200);
    expect(first.etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
    const again = await get(first.etag, headers);
    expect(again.res.status).toBe(304);
    expect(again.res.text ?? '').toBe('');
    expect(again.etag).toBe(first.etag);
    return first.etag;
  }

  /** Sent with an ETag from before a change: a full 200 answer with another ETag. */
  async function expectChanged(before: string, headers = apiHeaders(t)): Promise<string> {
    const { res, etag } = await get(before, headers);
    expect(res.status).toBe(200);
    expect(etag).not.toBe(before);
    expectOk<EntityResponse[]>(res);
    return etag;
  }

  it('answers 304 with no body to the current ETag, the same ETag as the 200, and accepts a list of tags', async () => {
    const etag = await current();
    const listed = await get(`W/"other", ${etag}`);
    expect(listed.res.status).toBe(304);
    const strong = await get(etag.replace(/^W\//, ''));
    expect(strong.res.status).toBe(304);
    const stale = await get('W/"not-the-current-one"');
    expect(stale.res.status).toBe(200);
    expect(stale.etag).toBe(etag);
    expect(expectOk<EntityResponse[]>(stale.res).map((r) => r.uuid)).toEqual(
      items.map((i) => i.uuid),
    );
  });

  it('changes with an update of a listed record, and the new page is answered', async () => {
    const before = await current();
    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', items[0].uuid))
        .set(owner.headers)
        .send({ extra_data: { ...items[0].extra_data, sort_position: 10 } }),
    );
    const after = await expectChanged(before);
    const page = expectOk<EntityResponse[]>((await get()).res);
    expect(page.map((r) => r.uuid)).toEqual([items[1].uuid, items[2].uuid, items[0].uuid]);
    expect((await get(after)).res.status).toBe(304);
  });

  it('changes with a created record, a trashed one, a restored one and a deleted one', async () => {
    let etag = await current();
    const created = await newItem(t, owner, menu, { extra_data: { sort_position: 20 } });
    etag = await expectChanged(etag);

    expectOk(
      await t.http
        .delete(entityPath(t, 'business_menu_item', 'trash', created.uuid))
        .set(owner.headers),
    );
    const trashed = await expectChanged(etag);

    expectOk(
      await t.http
        .post(entityPath(t, 'business_menu_item', 'restore', created.uuid))
        .set(owner.headers),
    );
    etag = await expectChanged(trashed);

    // A row removed outright (as a purge of old records would), not through the API.
    await t.dataSource.query('DELETE FROM entities WHERE uuid = $1', [created.uuid]);
    etag = await expectChanged(etag);
    expect((await get(etag)).res.status).toBe(304);
  });

  it('changes when the menu or the business is disabled or enabled again, for the public and the owner', async () => {
    const guest = await current();
    const mine = await current(owner.headers);
    const ownPage = expectOk<EntityResponse[]>((await get(undefined, owner.headers)).res);
    const put = (suffix: 'business' | 'business_menu', uuid: string, status: string) =>
      t.http
        .put(entityPath(t, suffix, uuid))
        .set(owner.headers)
        .send({ status });

    expectOk(await put('business_menu', menu.uuid, 'disabled'));
    const hidden = await expectChanged(guest);
    expect(expectOk<EntityResponse[]>((await get()).res)).toEqual([]);
    // The owner's ETag moves too (the menu's version changed), with the same page.
    const ownHidden = await get(mine, owner.headers);
    expect(ownHidden.res.status).toBe(200);
    expect(expectOk<EntityResponse[]>(ownHidden.res)).toEqual(ownPage);
    expectOk(await put('business_menu', menu.uuid, 'enabled'));
    const shown = await expectChanged(hidden);
    expect(expectOk<EntityResponse[]>((await get()).res).length).toBe(ownPage.length);

    expectOk(await put('business', business.uuid, 'disabled'));
    await expectChanged(shown);
    expect(expectOk<EntityResponse[]>((await get()).res)).toEqual([]);
    expectOk(await put('business', business.uuid, 'enabled'));
    expect(expectOk<EntityResponse[]>((await get(shown)).res).length).toBe(ownPage.length);
  });

  it('is per caller and per query: another caller or other parameters get the page, not 304', async () => {
    const guest = await current();
    const mine = await current(owner.headers);
    const theirs = await current(other.headers);
    expect(new Set([guest, mine, theirs]).size).toBe(3);
    // The owner's ETag from another caller: the other caller's own page, never a 304.
    const crossed = await get(mine, other.headers);
    expect(crossed.res.status).toBe(200);
    expect(crossed.etag).toBe(theirs);
    const smaller = await get(guest, apiHeaders(t), { per_page: 2 });
    expect(smaller.res.status).toBe(200);
    expect(smaller.etag).not.toBe(guest);
    const desc = await get(guest, apiHeaders(t), { sort_order: 'desc' });
    expect(desc.res.status).toBe(200);
  });

  it("moves with any write under the parent, also one the public never sees; a list without a parent keeps the public's", async () => {
    const hiddenItem = await newItem(t, owner, menu, { status: 'disabled' });
    const guest = await current();
    const guestPage = expectOk<EntityResponse[]>((await get()).res);
    const mine = await current(owner.headers);
    // Every item of the namespace, without parent_entity_uuid: the fingerprint of the matching records.
    const everywhere = (etag?: string) => {
      const req = t.http.get(entityPath(t, 'business_menu_item')).set(apiHeaders(t));
      return etag ? req.set('If-None-Match', etag) : req;
    };
    const wide = (await everywhere()).headers.etag as string;
    expect((await everywhere(wide)).status).toBe(304);

    expectOk(
      await t.http
        .put(entityPath(t, 'business_menu_item', hiddenItem.uuid))
        .set(owner.headers)
        .send({ title_name: 'Renamed while hidden' }),
    );
    await expectChanged(mine, owner.headers);
    const { res } = await get(guest);
    expect(res.status).toBe(200);
    expect(expectOk<EntityResponse[]>(res)).toEqual(guestPage);
    expect((await everywhere(wide)).status).toBe(304);
  });
});
