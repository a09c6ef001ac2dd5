import {
  entityPath,
  entityType,
  EntityResponse,
  newBusiness,
  newItem,
  newMenu,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

// R15: page size.
// R16: visibility.
describe('entities: list, filters, sorting, paging, visibility', () => {
  let t: TestApp;
  let a: TestUser;
  let b: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    a = await createUser(t);
    b = await createUser(t);
  });
  afterAll(() => t?.close());

  const uuids = (records: EntityResponse[]) => records.map((record) => record.uuid);

  async function list(
    suffix: 'business' | 'business_menu' | 'business_menu_item',
    query: Record<string, unknown>,
    headers: Record<string, string> = apiHeaders(t),
  ) {
    const res = await t.http.get(entityPath(t, suffix)).query(query).set(headers);
    const data = expectOk<EntityResponse[]>(res);
    return { data, meta: res.body.meta, message: res.body.message as string };
  }

  /** Adds `count` items straight into the table: the subject here is reading, not creating. */
  async function insertItems(
    owner: TestUser,
    menu: EntityResponse,
    count: number,
    sortPosition: (n: number) => unknown,
  ): Promise<void> {
    await t.dataSource.query(
      `INSERT INTO entities (entity_type, owned_by, parent_entity_type, parent_entity_uuid, meta_key, title_name, extra_data)
       SELECT $1, $2, $3, $4, 'bulk-' || g, 'Bulk ' || g,
              jsonb_build_object('unit_price_amount', '1.00', 'minimum_quantity_per_order', 1,
                                 'maximum_quantity_per_order', 5, 'sort_position', ($5::jsonb -> (g - 1)))
       FROM generate_series(1, $6::int) AS g`,
      [
        entityType(t, 'business_menu_item'),
        owner.uuid,
        entityType(t, 'business_menu'),
        menu.uuid,
        JSON.stringify(Array.from({ length: count }, (_, index) => sortPosition(index + 1))),
        count,
      ],
    );
  }

  describe('sorting', () => {
    let menu: EntityResponse;

    beforeAll(async () => {
      menu = await newMenu(t, a, await newBusiness(t, a));
      for (const position of [10, '3', 1, 2]) {
        await newItem(t, a, menu, {
          title_name: `Position ${position}`,
          extra_data: { sort_position: position, rank: `${position}`, label: `L${position}` },
        });
      }
    });

    const positions = (records: EntityResponse[]) =>
      records.map((record) => record.extra_data.sort_position);

    it('sorts sort_position 1, 2, 10, "3" as numbers: 1, 2, 3, 10', async () => {
      const query = {
        parent_entity_type: entityType(t, 'business_menu'),
        parent_entity_uuid: menu.uuid,
        per_page: 1000,
        sort_by: 'extra_data.sort_position',
        sort_order: 'asc',
      };
      expect(positions((await list('business_menu_item', query)).data)).toEqual([1, 2, 3, 10]);
      const desc = await list('business_menu_item', { ...query, sort_order: 'DESC' });
      expect(positions(desc.data)).toEqual([10, 3, 2, 1]);
    });

    it('sorts numeric strings of unknown keys as numbers, other values after them', async () => {
      // rank is kept as a string ("10", "3", ...); it still sorts as a number.
      const ranks = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        sort_by: 'extra_data.rank',
      });
      expect(ranks.data.map((record) => record.extra_data.rank)).toEqual(['1', '2', '3', '10']);
      const labels = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        sort_by: 'extra_data.label',
      });
      expect(labels.data.map((record) => record.extra_data.label)).toEqual([
        'L1',
        'L10',
        'L2',
        'L3',
      ]);
      // A key no record has: every value is missing, so the tie-break decides alone.
      const missing = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        sort_by: 'extra_data.nothing_here',
      });
      expect(positions(missing.data)).toEqual([10, 3, 1, 2]);
    });

    it('sorts by a column', async () => {
      const byTitle = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        sort_by: 'title_name',
        sort_order: 'desc',
      });
      expect(byTitle.data.map((record) => record.title_name)).toEqual([
        'Position 3',
        'Position 2',
        'Position 10',
        'Position 1',
      ]);
      const byUuid = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        sort_by: 'uuid',
      });
      expect(uuids(byUuid.data)).toEqual([...uuids(byUuid.data)].sort());
    });

    it.each([
      ['sort_by', 'extra_data.x);drop table entities;--'],
      ['sort_by', 'extra_data.'],
      ['sort_by', 'password'],
      ['sort_by', 'extra_data.a.b'],
      ['sort_by', `extra_data.${'k'.repeat(65)}`],
      ['sort_by', 'owned_by'],
      ['sort_order', 'sideways'],
      ['page', '0'],
      ['page', 'two'],
      ['per_page', '0'],
      ['per_page', '-5'],
      ['per_page', '1.5'],
      ['owned_by', 'not-a-uuid'],
      ['status', 'archived'],
    ])('refuses %s=%p with 400 naming the field, and touches nothing', async (field, value) => {
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM entities');
      const res = await t.http
        .get(entityPath(t, 'business_menu_item'))
        .query({ parent_entity_uuid: menu.uuid, [field]: value })
        .set(a.headers);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((detail: { field: string }) => detail.field)).toEqual([
        field,
      ]);
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM entities')).toEqual(before);
    });
  });

  describe('paging', () => {
    it('is stable across pages when the sort key ties, in both directions', async () => {
      const menu = await newMenu(t, a, await newBusiness(t, a));
      await insertItems(a, menu, 23, () => 5);
      for (const sortOrder of ['asc', 'desc']) {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const { data, meta } = await list('business_menu_item', {
            parent_entity_uuid: menu.uuid,
            sort_by: 'extra_data.sort_position',
            sort_order: sortOrder,
            page,
            per_page: 10,
          });
          expect(meta).toEqual({ page, per_page: 10, total: 23, last_page: 3 });
          seen.push(...uuids(data));
        }
        expect(seen).toHaveLength(23);
        expect(new Set(seen).size).toBe(23);
        const all = await list('business_menu_item', {
          parent_entity_uuid: menu.uuid,
          sort_by: 'extra_data.sort_position',
          sort_order: sortOrder,
          per_page: 100,
        });
        expect(uuids(all.data)).toEqual(seen);
      }
      const beyond = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        page: 9,
        per_page: 10,
      });
      expect(beyond.data).toEqual([]);
      expect(beyond.meta).toEqual({ page: 9, per_page: 10, total: 23, last_page: 3 });
    });

    it('lists a menu of 1000 items in one page; per_page=20000000 gives 1000', async () => {
      const menu = await newMenu(t, a, await newBusiness(t, a));
      await insertItems(a, menu, 1001, (n) => 1001 - n);
      const client = await list('business_menu_item', {
        parent_entity_type: entityType(t, 'business_menu'),
        parent_entity_uuid: menu.uuid,
        per_page: 1000,
        sort_by: 'extra_data.sort_position',
        sort_order: 'asc',
      });
      expect(client.data).toHaveLength(1000);
      expect(client.data.map((record) => record.extra_data.sort_position)).toEqual(
        Array.from({ length: 1000 }, (_, index) => index),
      );
      expect(client.meta).toEqual({ page: 1, per_page: 1000, total: 1001, last_page: 2 });

      const huge = await list('business_menu_item', {
        parent_entity_uuid: menu.uuid,
        per_page: 20000000,
      });
      expect(huge.data).toHaveLength(1000);
      expect(huge.meta.per_page).toBe(1000);
    });

    it('defaults to page 1 of 20, oldest first', async () => {
      const menu = await newMenu(t, a, await newBusiness(t, a));
      await insertItems(a, menu, 25, (n) => n);
      const { data, meta } = await list('business_menu_item', { parent_entity_uuid: menu.uuid });
      expect(meta).toEqual({ page: 1, per_page: 20, total: 25, last_page: 2 });
      const created = data.map((record) => record.created_at);
      expect(created).toEqual([...created].sort());
    });
  });

  describe('filters', () => {
    let owner: TestUser;
    let business: EntityResponse;

    beforeAll(async () => {
      owner = await createUser(t);
      business = await newBusiness(t, owner, {
        meta_key: 'Filter House',
        slug: 'filter-house',
        title_name: 'The 100% Filter House',
      });
      await newBusiness(t, owner, { meta_key: 'Other Place', slug: 'other-place' });
      await newBusiness(t, owner, { meta_key: 'Closed Place', status: 'disabled' });
    });

    it('answers the owner client call: owned_by, page 1, per_page 100, sort_by uuid asc', async () => {
      const { data, meta, message } = await list(
        'business',
        { owned_by: owner.uuid, page: 1, per_page: 100, sort_by: 'uuid', sort_order: 'asc' },
        owner.headers,
      );
      expect(data.map((record) => record.meta_key).sort()).toEqual([
        'Closed Place',
        'Filter House',
        'Other Place',
      ]);
      expect(uuids(data)).toEqual([...uuids(data)].sort());
      expect(meta).toEqual({ page: 1, per_page: 100, total: 3, last_page: 1 });
      expect(message).toBe('Business records');
    });

    it('filters by meta_key (ignoring case), slug, status and q', async () => {
      const scoped = { owned_by: owner.uuid };
      expect(uuids((await list('business', { ...scoped, meta_key: 'filter HOUSE' })).data)).toEqual(
        [business.uuid],
      );
      expect(uuids((await list('business', { ...scoped, slug: 'filter-house' })).data)).toEqual([
        business.uuid,
      ]);
      expect(uuids((await list('business', { ...scoped, q: 'house' })).data)).toEqual([
        business.uuid,
      ]);
      // LIKE wildcards in q are plain characters.
      expect(uuids((await list('business', { ...scoped, q: '100%' })).data)).toEqual([
        business.uuid,
      ]);
      expect((await list('business', { ...scoped, q: '_' })).data).toEqual([]);
      const disabled = await list('business', { ...scoped, status: 'disabled' }, owner.headers);
      expect(disabled.data.map((record) => record.meta_key)).toEqual(['Closed Place']);
    });

    it('treats empty query values as not sent', async () => {
      const { meta } = await list('business', {
        owned_by: owner.uuid,
        q: '',
        status: '',
        sort_by: '',
        page: '',
      });
      expect(meta.total).toBe(2);
    });

    it('filters by parent type and uuid', async () => {
      const menu = await newMenu(t, owner, business);
      const byParent = await list('business_menu', {
        parent_entity_type: entityType(t, 'business'),
        parent_entity_uuid: business.uuid,
      });
      expect(uuids(byParent.data)).toEqual([menu.uuid]);
      const wrongParentType = await list('business_menu', {
        parent_entity_type: entityType(t, 'business_menu'),
        parent_entity_uuid: business.uuid,
      });
      expect(wrongParentType.data).toEqual([]);
    });
  });

  describe('visibility (no trash; others see only enabled records)', () => {
    let owner: TestUser;
    let business: EntityResponse;
    let menu: EntityResponse;
    let enabledItem: EntityResponse;
    let disabledItem: EntityResponse;
    let trashedItem: EntityResponse;

    beforeAll(async () => {
      owner = await createUser(t);
      business = await newBusiness(t, owner);
      menu = await newMenu(t, owner, business);
      enabledItem = await newItem(t, owner, menu, { extra_data: { sort_position: 1 } });
      disabledItem = await newItem(t, owner, menu, {
        status: 'disabled',
        extra_data: { sort_position: 2 },
      });
      trashedItem = await newItem(t, owner, menu, { extra_data: { sort_position: 3 } });
      expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', trashedItem.uuid))
          .set(owner.headers),
      );
    });

    const itemsOf = async (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
      uuids(
        (
          await list(
            'business_menu_item',
            { parent_entity_uuid: menu.uuid, sort_by: 'extra_data.sort_position', ...extra },
            headers,
          )
        ).data,
      );

    it('shows guests and other users only enabled, live records', async () => {
      expect(await itemsOf(apiHeaders(t))).toEqual([enabledItem.uuid]);
      expect(await itemsOf(b.headers)).toEqual([enabledItem.uuid]);
      expect(await itemsOf(b.headers, { owned_by: owner.uuid })).toEqual([enabledItem.uuid]);
      expect(await itemsOf(apiHeaders(t), { status: 'disabled' })).toEqual([]);
    });

    it("shows the owner all their live records, enabled or not, but never the trash's", async () => {
      expect(await itemsOf(owner.headers)).toEqual([enabledItem.uuid, disabledItem.uuid]);
      expect(await itemsOf(owner.headers, { owned_by: owner.uuid })).toEqual([
        enabledItem.uuid,
        disabledItem.uuid,
      ]);
      expect(await itemsOf(owner.headers, { status: 'disabled' })).toEqual([disabledItem.uuid]);
    });

    it('hides the items of a disabled menu and the menus of a disabled business from the public', async () => {
      const put = (suffix: 'business' | 'business_menu', uuid: string, status: string) =>
        t.http
          .put(entityPath(t, suffix, uuid))
          .set(owner.headers)
          .send({ status });

      expectOk(await put('business_menu', menu.uuid, 'disabled'));
      expect(await itemsOf(apiHeaders(t))).toEqual([]);
      expect(await itemsOf(owner.headers)).toEqual([enabledItem.uuid, disabledItem.uuid]);
      expectOk(await put('business_menu', menu.uuid, 'enabled'));

      expectOk(await put('business', business.uuid, 'disabled'));
      expect(await itemsOf(apiHeaders(t))).toEqual([]);
      const menus = await list('business_menu', { parent_entity_uuid: business.uuid });
      expect(menus.data).toEqual([]);
      expectOk(await put('business', business.uuid, 'enabled'));
      expect(await itemsOf(apiHeaders(t))).toEqual([enabledItem.uuid]);
    });

    it("hides a trashed business's menus and items from public lists", async () => {
      expectOk(
        await t.http.delete(entityPath(t, 'business', 'trash', business.uuid)).set(owner.headers),
      );
      expect(await itemsOf(apiHeaders(t))).toEqual([]);
      expect(await itemsOf(b.headers)).toEqual([]);
      expect((await list('business', { owned_by: owner.uuid })).data).toEqual([]);
      expectOk(
        await t.http.post(entityPath(t, 'business', 'restore', business.uuid)).set(owner.headers),
      );
      expect(await itemsOf(apiHeaders(t))).toEqual([enabledItem.uuid]);
    });
  });

  describe('answer bytes', () => {
    it('answers each record byte for byte as the single read does, with ISO timestamps and the total in meta', async () => {
      const menu = await newMenu(t, a, await newBusiness(t, a));
      await insertItems(a, menu, 3, (n) => n);
      // Microseconds in the database; milliseconds in the answer, cut (not rounded) as before.
      await t.dataSource.query(
        `UPDATE entities SET created_at = '2026-01-01T00:00:00.123987Z', updated_at = '2026-03-04T05:06:07Z',
           trashed_at = NULL WHERE parent_entity_uuid = $1 AND meta_key = 'bulk-1'`,
        [menu.uuid],
      );
      const query = {
        parent_entity_uuid: menu.uuid,
        sort_by: 'extra_data.sort_position',
        per_page: 2,
      };
      const res = await t.http.get(entityPath(t, 'business_menu_item')).query(query).set(a.headers);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
      const page = expectOk<EntityResponse[]>(res);
      expect(page).toHaveLength(2);
      expect(page[0].created_at).toBe('2026-01-01T00:00:00.123Z');
      expect(page[0].updated_at).toBe('2026-03-04T05:06:07.000Z');
      expect(page[0].trashed_at).toBeNull();

      const singles = [];
      for (const record of page) {
        const one = await t.http
          .get(entityPath(t, 'business_menu_item', record.uuid))
          .set(a.headers);
        singles.push(expectOk<EntityResponse>(one));
      }
      expect(res.text).toBe(
        JSON.stringify({
          status: true,
          message: res.body.message,
          data: singles,
          meta: { page: 1, per_page: 2, total: 3, last_page: 2 },
        }),
      );

      const last = await list('business_menu_item', { ...query, page: 2 }, a.headers);
      expect(last.data).toHaveLength(1);
      expect(last.meta).toEqual({ page: 2, per_page: 2, total: 3, last_page: 2 });
      const past = await list('business_menu_item', { ...query, page: 5 }, a.headers);
      expect(past.data).toEqual([]);
      expect(past.meta).toEqual({ page: 5, per_page: 2, total: 3, last_page: 2 });
      const none = await list('business_menu_item', { parent_entity_uuid: a.uuid }, a.headers);
      expect(none.meta).toEqual({ page: 1, per_page: 20, total: 0, last_page: 1 });
    });
  });
});
