import { randomUUID } from 'node:crypto';
import { Clock } from '../src/common/clock';
import { EntityService } from '../src/entity/entity.service';
import {
  entityPath,
  entityType,
  EntityResponse,
  newBusiness,
  newCatalog,
  newItem,
  newMenu,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

interface Storefront {
  business: EntityResponse;
  menu: EntityResponse;
  items: EntityResponse[];
  items_truncated: boolean;
}

const CACHE_TTL_MS = 60_000;

// R17: storefront in one call.
describe('storefront in one call, retrieve by meta_key, orderable menus', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    // A long TTL so that only invalidation can explain a fresh answer.
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: String(CACHE_TTL_MS) });
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(() => t?.close());
  afterEach(() => t.app.get(Clock).reset());

  const storefrontPath = (business: string, menu: string) =>
    `${t.core}/storefront/${encodeURIComponent(business)}/menu/${encodeURIComponent(menu)}`;

  async function storefront(business: string, menu: string): Promise<Storefront> {
    const res = await t.http.get(storefrontPath(business, menu)).set(apiHeaders(t));
    const data = expectOk<Storefront>(res);
    expect(res.body.message).toBe('Storefront found');
    return data;
  }

  async function storefrontOf(catalog: { business: EntityResponse; menu: EntityResponse }) {
    return storefront(catalog.business.meta_key!, catalog.menu.meta_key!);
  }

  const put = (
    user: TestUser,
    suffix: Parameters<typeof entityPath>[1],
    uuid: string,
    body: object,
  ) =>
    t.http
      .put(entityPath(t, suffix, uuid))
      .set(user.headers)
      .send(body);

  const titles = (data: Storefront) => data.items.map((item) => item.title_name);

  describe('storefront', () => {
    it('returns the public business, menu and items, in the same order as the list call', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [
          { title_name: 'five', extra_data: { sort_position: 5 } },
          { title_name: 'two', extra_data: { sort_position: '2' } },
          { title_name: 'ten', extra_data: { sort_position: 10 } },
          { title_name: 'two again', extra_data: { sort_position: 2 } },
          { title_name: 'unsorted', extra_data: { sort_position: null } },
          { title_name: 'disabled', status: 'disabled', extra_data: { sort_position: 1 } },
          { title_name: 'trashed', extra_data: { sort_position: 1 } },
        ],
      });
      const trashed = catalog.items.find((item) => item.title_name === 'trashed')!;
      expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', trashed.uuid))
          .set(owner.headers),
      );

      const data = await storefrontOf(catalog);
      expect(data.business.uuid).toBe(catalog.business.uuid);
      expect(data.menu.uuid).toBe(catalog.menu.uuid);
      expect(titles(data)).toEqual(['two', 'two again', 'five', 'ten', 'unsorted']);
      expect(data.items_truncated).toBe(false);

      const listed = expectOk<EntityResponse[]>(
        await t.http
          .get(entityPath(t, 'business_menu_item'))
          .query({
            parent_entity_type: entityType(t, 'business_menu'),
            parent_entity_uuid: catalog.menu.uuid,
            per_page: 1000,
            sort_by: 'extra_data.sort_position',
            sort_order: 'asc',
          })
          .set(apiHeaders(t)),
      );
      expect(data.items).toEqual(listed);
    });

    it('matches the meta_keys ignoring case', async () => {
      const catalog = await newCatalog(t, owner, {
        business: { meta_key: 'Case Café' },
        menu: { meta_key: 'Dinner Menu' },
      });
      const data = await storefront('case café', 'DINNER MENU');
      expect(data.menu.uuid).toBe(catalog.menu.uuid);
    });

    it('is 404 unless the business and the menu are both public, and needs the API key', async () => {
      const catalog = await newCatalog(t, owner);
      const elsewhere = await newCatalog(t, owner);
      const get = (business: string, menu: string) =>
        t.http.get(storefrontPath(business, menu)).set(apiHeaders(t));
      const businessKey = catalog.business.meta_key!;
      const menuKey = catalog.menu.meta_key!;

      expectError(await get('no-such-business', menuKey), 404, 'NOT_FOUND');
      expectError(await get(businessKey, 'no-such-menu'), 404, 'NOT_FOUND');
      expectError(await get(businessKey, elsewhere.menu.meta_key!), 404, 'NOT_FOUND');
      expectError(await t.http.get(storefrontPath(businessKey, menuKey)), 401, 'API_KEY_INVALID');

      expectOk(await put(owner, 'business_menu', catalog.menu.uuid, { status: 'disabled' }));
      expectError(await get(businessKey, menuKey), 404, 'NOT_FOUND');
      expectOk(await put(owner, 'business_menu', catalog.menu.uuid, { status: 'enabled' }));

      expectOk(await put(owner, 'business', catalog.business.uuid, { status: 'disabled' }));
      expectError(await get(businessKey, menuKey), 404, 'NOT_FOUND');
      expectOk(await put(owner, 'business', catalog.business.uuid, { status: 'enabled' }));

      expectOk(
        await t.http
          .delete(entityPath(t, 'business', 'trash', catalog.business.uuid))
          .set(owner.headers),
      );
      expectError(await get(businessKey, menuKey), 404, 'NOT_FOUND');
      expectOk(
        await t.http
          .post(entityPath(t, 'business', 'restore', catalog.business.uuid))
          .set(owner.headers),
      );
      expectOk(await get(businessKey, menuKey));
    });

    it('is served from at most three queries, then from the cache', async () => {
      const catalog = await newCatalog(t, owner, { items: [{}, {}, {}] });
      const spy = jest.spyOn(t.dataSource, 'query');
      try {
        const entityQueries = () =>
          spy.mock.calls.filter(([sql]) => /\bentities\b/.test(String(sql))).length;
        await storefrontOf(catalog);
        expect(entityQueries()).toBeLessThanOrEqual(3);
        const afterFirst = entityQueries();
        await storefrontOf(catalog);
        expect(entityQueries()).toBe(afterFirst);
      } finally {
        spy.mockRestore();
      }
    });

    it('holds an answer for its TTL when nothing is written through the service', async () => {
      const catalog = await newCatalog(t, owner, { items: [{ title_name: 'before' }] });
      expect(titles(await storefrontOf(catalog))).toEqual(['before']);
      await t.dataSource.query(
        `UPDATE entities SET title_name = 'behind its back' WHERE uuid = $1`,
        [catalog.items[0].uuid],
      );
      expect(titles(await storefrontOf(catalog))).toEqual(['before']);
      t.app.get(Clock).advance(CACHE_TTL_MS + 1000);
      expect(titles(await storefrontOf(catalog))).toEqual(['behind its back']);
    });

    it('shows every write to its records at once', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [
          { title_name: 'first', extra_data: { sort_position: 1 } },
          { title_name: 'second', extra_data: { sort_position: 2 } },
        ],
      });
      const [first, second] = catalog.items;
      expect(titles(await storefrontOf(catalog))).toEqual(['first', 'second']);

      expectOk(
        await put(owner, 'business_menu_item', second.uuid, {
          title_name: 'second, now first',
          extra_data: { ...second.extra_data, sort_position: 0, unit_price_amount: '12.00' },
        }),
      );
      const updated = await storefrontOf(catalog);
      expect(titles(updated)).toEqual(['second, now first', 'first']);
      expect(updated.items[0].extra_data.unit_price_amount).toBe('12.00');

      await newItem(t, owner, catalog.menu, {
        title_name: 'third',
        extra_data: { sort_position: 9 },
      });
      expect(titles(await storefrontOf(catalog))).toEqual(['second, now first', 'first', 'third']);

      expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', first.uuid))
          .set(owner.headers),
      );
      expect(titles(await storefrontOf(catalog))).toEqual(['second, now first', 'third']);
      expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'restore', first.uuid))
          .set(owner.headers),
      );
      expect(titles(await storefrontOf(catalog))).toEqual(['second, now first', 'first', 'third']);

      expectOk(
        await put(owner, 'business_menu', catalog.menu.uuid, { title_name: 'New menu title' }),
      );
      expect((await storefrontOf(catalog)).menu.title_name).toBe('New menu title');
      expectOk(await put(owner, 'business', catalog.business.uuid, { title_name: 'New name' }));
      expect((await storefrontOf(catalog)).business.title_name).toBe('New name');

      // An item moved to another menu leaves this storefront at once.
      const otherMenu = await newMenu(t, owner, catalog.business);
      expectOk(
        await put(owner, 'business_menu_item', first.uuid, { parent_entity_uuid: otherMenu.uuid }),
      );
      expect(titles(await storefrontOf(catalog))).toEqual(['second, now first', 'third']);
    });

    it('answers at most 1000 items, in order, and says when the menu has more', async () => {
      const catalog = await newCatalog(t, owner, { items: [] });
      // Inserted straight into the table: the subject is the read.
      await t.dataSource.query(
        `INSERT INTO entities (entity_type, owned_by, parent_entity_type, parent_entity_uuid, title_name, extra_data)
         SELECT $1, $2, $3, $4, 'Bulk ' || g,
                jsonb_build_object('unit_price_amount', '1.00', 'minimum_quantity_per_order', 1,
                                   'maximum_quantity_per_order', 5, 'sort_position', 1001 - g)
         FROM generate_series(1, 1001) AS g`,
        [
          entityType(t, 'business_menu_item'),
          owner.uuid,
          entityType(t, 'business_menu'),
          catalog.menu.uuid,
        ],
      );
      const data = await storefrontOf(catalog);
      expect(data.items_truncated).toBe(true);
      expect(data.items.map((item) => item.extra_data.sort_position)).toEqual(
        Array.from({ length: 1000 }, (_, index) => index),
      );
    });

    it('follows a renamed business at once: the old URL is 404, the new one answers', async () => {
      const catalog = await newCatalog(t, owner);
      await storefrontOf(catalog);
      expectOk(await put(owner, 'business', catalog.business.uuid, { meta_key: 'Renamed Place' }));
      expectError(
        await t.http
          .get(storefrontPath(catalog.business.meta_key!, catalog.menu.meta_key!))
          .set(apiHeaders(t)),
        404,
        'NOT_FOUND',
      );
      expect((await storefront('Renamed Place', catalog.menu.meta_key!)).menu.uuid).toBe(
        catalog.menu.uuid,
      );
    });
  });

  describe('retrieve by meta_key (the one public record, ignoring case)', () => {
    const retrieve = (
      suffix: Parameters<typeof entityPath>[1],
      metaKey: string,
      query: Record<string, string> = {},
      headers = apiHeaders(t),
    ) =>
      t.http
        .get(entityPath(t, suffix, 'retrieve-by-meta-key', encodeURIComponent(metaKey)))
        .query(query)
        .set(headers);

    it('finds one public business by meta_key, ignoring case, with the API key only', async () => {
      const business = await newBusiness(t, owner, { meta_key: 'Lookup Bistro' });
      const found = expectOk<EntityResponse>(await retrieve('business', 'LOOKUP bistro'));
      expect(found.uuid).toBe(business.uuid);
      expectError(
        await t.http.get(entityPath(t, 'business', 'retrieve-by-meta-key', 'x')),
        401,
        'API_KEY_INVALID',
      );
      expectError(await retrieve('business', 'Nobody Here'), 404, 'NOT_FOUND');
    });

    it('does not find disabled or trashed records, even for their owner', async () => {
      const disabled = await newBusiness(t, owner, { status: 'disabled' });
      expectError(
        await retrieve('business', disabled.meta_key!, {}, owner.headers),
        404,
        'NOT_FOUND',
      );
      const catalog = await newCatalog(t, owner);
      expectOk(
        await t.http
          .post(entityPath(t, 'business', 'trash', catalog.business.uuid))
          .set(owner.headers),
      );
      expectError(await retrieve('business', catalog.business.meta_key!), 404, 'NOT_FOUND');
      // The menu of a trashed business is not public either.
      expectError(
        await retrieve('business_menu', catalog.menu.meta_key!, {
          parent_entity_uuid: catalog.business.uuid,
        }),
        404,
        'NOT_FOUND',
      );
    });

    it('asks for parent_entity_uuid when a menu meta_key names menus of several businesses', async () => {
      const first = await newBusiness(t, owner);
      const second = await newBusiness(t, other);
      const mine = await newMenu(t, owner, first, { meta_key: 'shared-menu-name' });
      const theirs = await newMenu(t, other, second, { meta_key: 'shared-menu-name' });
      const ambiguous = await retrieve('business_menu', 'shared-menu-name');
      expectError(ambiguous, 409, 'CONFLICT');
      expect(ambiguous.body.error.details[0].field).toBe('parent_entity_uuid');
      const narrowed = await retrieve('business_menu', 'shared-menu-name', {
        parent_entity_uuid: second.uuid,
      });
      expect(expectOk<EntityResponse>(narrowed).uuid).toBe(theirs.uuid);
      expect(mine.uuid).not.toBe(theirs.uuid);
    });
  });

  describe('findOrderableMenu (for the orders module)', () => {
    let service: EntityService;

    beforeAll(() => {
      service = t.app.get(EntityService);
    });

    it('returns the public menu, its business and the asked public items of that menu', async () => {
      const catalog = await newCatalog(t, owner, { items: [{}, {}, {}, { status: 'disabled' }] });
      const [one, two, trashed, disabled] = catalog.items;
      expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', trashed.uuid))
          .set(owner.headers),
      );
      const foreign = (await newCatalog(t, owner)).items[0];

      const found = await service.findOrderableMenu(catalog.menu.uuid, [
        two.uuid,
        'not-a-uuid',
        randomUUID(),
        trashed.uuid,
        disabled.uuid,
        foreign.uuid,
        one.uuid.toUpperCase(),
        two.uuid,
      ]);
      expect(found).not.toBeNull();
      expect(found!.menu.uuid).toBe(catalog.menu.uuid);
      expect(found!.business.uuid).toBe(catalog.business.uuid);
      expect(found!.items.map((item) => item.uuid)).toEqual([two.uuid, one.uuid]);
      expect(found!.items[0].extraData).toMatchObject({
        unit_price_amount: '10.00',
        minimum_quantity_per_order: 1,
        maximum_quantity_per_order: 10,
      });
      expect(found!.menu.extraData.menu_base_wallet_ticker).toBe('NGN');
      expect((await service.findOrderableMenu(catalog.menu.uuid, []))!.items).toEqual([]);
    });

    it('is null when the menu or its business is not public, or the uuid is no menu', async () => {
      const catalog = await newCatalog(t, owner);
      const menu = catalog.menu.uuid;
      expect(await service.findOrderableMenu(randomUUID(), [])).toBeNull();
      expect(await service.findOrderableMenu('garbage', [])).toBeNull();
      expect(await service.findOrderableMenu(catalog.items[0].uuid, [])).toBeNull();
      expect(await service.findOrderableMenu(catalog.business.uuid, [])).toBeNull();

      expectOk(await put(owner, 'business_menu', menu, { status: 'disabled' }));
      expect(await service.findOrderableMenu(menu, [])).toBeNull();
      expectOk(await put(owner, 'business_menu', menu, { status: 'enabled' }));

      expectOk(await put(owner, 'business', catalog.business.uuid, { status: 'disabled' }));
      expect(await service.findOrderableMenu(menu, [])).toBeNull();
      expectOk(await put(owner, 'business', catalog.business.uuid, { status: 'enabled' }));

      expectOk(
        await t.http
          .post(entityPath(t, 'business', 'trash', catalog.business.uuid))
          .set(owner.headers),
      );
      expect(await service.findOrderableMenu(menu, [])).toBeNull();
      expectOk(
        await t.http
          .post(entityPath(t, 'business', 'restore', catalog.business.uuid))
          .set(owner.headers),
      );
      expectOk(await t.http.post(entityPath(t, 'business_menu', 'trash', menu)).set(owner.headers));
      expect(await service.findOrderableMenu(menu, [])).toBeNull();
    });

    it("reads through the caller's transaction when given its manager", async () => {
      const catalog = await newCatalog(t, owner);
      const rollback = new Error('roll back');
      await expect(
        t.dataSource.transaction(async (manager) => {
          const [row] = await manager.query(
            `INSERT INTO entities (entity_type, owned_by, parent_entity_type, parent_entity_uuid, extra_data)
             VALUES ($1, $2, $3, $4, '{"unit_price_amount": "1.00"}') RETURNING uuid`,
            [
              entityType(t, 'business_menu_item'),
              owner.uuid,
              entityType(t, 'business_menu'),
              catalog.menu.uuid,
            ],
          );
          // Only this transaction sees the new item (and with one embedded connection,
          // a query outside it would wait for it forever).
          const found = await service.findOrderableMenu(catalog.menu.uuid, [row.uuid], manager);
          expect(found!.items.map((item) => item.uuid)).toEqual([row.uuid]);
          throw rollback;
        }),
      ).rejects.toBe(rollback);
      const after = await service.findOrderableMenu(catalog.menu.uuid, [catalog.items[0].uuid]);
      expect(after!.items).toHaveLength(1);
    });
  });
});
