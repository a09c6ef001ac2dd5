import { randomUUID } from 'node:crypto';
import { ApiError } from '../../src/http/api-error';
import { EntityListFilter, EntityValues, metaKeyConflict } from '../../src/entity/entity-sql';
import { EntityRepository } from '../../src/entity/entity.repository';
import { EntityType, EntityTypeRegistry } from '../../src/entity/entity-types';
import { StorefrontRepository } from '../../src/entity/storefront.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, MediumUser, newEntity, newMember, newUser } from '../support/medium-factory';

/**
 * The entities table's repositories on a real database, no HTTP: writes
 * with their owner and request_id rules, the public scope through the
 * ancestors, lists (filters, sorting, pages, member rows) and the
 * storefront's three reads.
 */
describe('entity repositories (medium)', () => {
  let ctx: MediumContext;
  let entities: EntityRepository;
  let storefront: StorefrontRepository;
  let businessType: EntityType;
  let menuType: EntityType;
  let itemType: EntityType;
  let owner: MediumUser;
  let outsider: MediumUser;

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [EntityRepository, StorefrontRepository, EntityTypeRegistry],
    });
    entities = ctx.get(EntityRepository);
    storefront = ctx.get(StorefrontRepository);
    const types = ctx.get(EntityTypeRegistry);
    businessType = types.of('business');
    menuType = types.of('business_menu');
    itemType = types.of('business_menu_item');
    owner = await newUser(ctx);
    outsider = await newUser(ctx);
  });
  afterAll(() => ctx?.close());

  function values(overrides: Partial<EntityValues> = {}): EntityValues {
    return {
      requestId: null,
      slug: null,
      metaKey: null,
      metaValue: null,
      titleName: 'A title',
      description: null,
      entityFeaturedUrl: null,
      status: 'enabled',
      parentEntityType: null,
      parentEntityUuid: null,
      extraData: {},
      ...overrides,
    };
  }

  function filter(type: EntityType, overrides: Partial<EntityListFilter> = {}): EntityListFilter {
    return {
      type,
      viewer: undefined,
      sort: { column: 'created_at', direction: 'asc' },
      page: 1,
      perPage: 50,
      ...overrides,
    };
  }

  /** A business with one menu (both enabled), each record owned by `owner`. */
  async function catalog(status: { menu?: string; business?: string } = {}) {
    const business = await newEntity(ctx, 'business', owner.uuid, { status: status.business });
    const menu = await newEntity(ctx, 'business_menu', owner.uuid, {
      parent: business,
      status: status.menu,
    });
    return { business, menu };
  }

  const item = (menu: MediumEntity, fields: Parameters<typeof newEntity>[3] = {}) =>
    newEntity(ctx, 'business_menu_item', menu.ownedBy, { parent: menu, ...fields });

  describe('writes', () => {
    it('inserts every writable column and answers the record as stored', async () => {
      const { menu } = await catalog();
      const record = await entities.insert(
        itemType,
        owner.uuid,
        outsider.uuid,
        values({
          slug: 'jollof',
          metaKey: 'jollof',
          metaValue: 'v',
          titleName: 'Jollof',
          description: 'Rice',
          entityFeaturedUrl: 'https://example.test/j.png',
          status: 'disabled',
          parentEntityType: menuType.name,
          parentEntityUuid: menu.uuid,
          extraData: { price: 2500, tags: ['hot'] },
        }),
      );
      expect(record).toMatchObject({
        entityType: itemType.name,
        ownedBy: owner.uuid,
        updatedBy: outsider.uuid,
        slug: 'jollof',
        metaKey: 'jollof',
        metaValue: 'v',
        titleName: 'Jollof',
        description: 'Rice',
        entityFeaturedUrl: 'https://example.test/j.png',
        status: 'disabled',
        parentEntityType: menuType.name,
        parentEntityUuid: menu.uuid,
        extraData: { price: 2500, tags: ['hot'] },
        trashedAt: null,
      });
      expect(record!.createdAt).toBeInstanceOf(Date);
      expect(await entities.findOfType(itemType, record!.uuid)).toEqual(record);
    });

    it('a request_id used before by the owner inserts nothing, even from concurrent creates', async () => {
      const requestId = randomUUID();
      const made = await Promise.all(
        Array.from({ length: 4 }, () =>
          entities.insert(businessType, owner.uuid, owner.uuid, values({ requestId })),
        ),
      );
      expect(made.filter((record) => record !== null)).toHaveLength(1);
      const first = made.find((record) => record !== null)!;
      expect(await entities.findByRequestId(businessType, owner.uuid, requestId)).toEqual(first);
      // Another owner's request_id is their own.
      expect(
        await entities.insert(businessType, outsider.uuid, outsider.uuid, values({ requestId })),
      ).not.toBeNull();
    });

    it('a live meta_key clash among businesses is a unique violation, answered as 409 on meta_key', async () => {
      const metaKey = `taken-${randomUUID().slice(0, 8)}`;
      await entities.insert(businessType, owner.uuid, owner.uuid, values({ metaKey }));
      const error = await entities
        .insert(
          businessType,
          outsider.uuid,
          outsider.uuid,
          values({ metaKey: metaKey.toUpperCase() }),
        )
        .catch((e: unknown) => e);
      const answer = metaKeyConflict(error);
      expect(answer).toBeInstanceOf(ApiError);
      expect((answer as ApiError).getStatus()).toBe(409);
    });

    it('updates only a live record of its owner, trashes and restores it', async () => {
      const { business } = await catalog();
      const changed = values({ titleName: 'Renamed', extraData: { opening: '9am' } });
      expect(
        await entities.update(businessType, business.uuid, outsider.uuid, outsider.uuid, changed),
      ).toBeNull();
      const updated = await entities.update(
        businessType,
        business.uuid,
        owner.uuid,
        outsider.uuid,
        changed,
      );
      expect(updated).toMatchObject({
        titleName: 'Renamed',
        metaKey: null,
        extraData: { opening: '9am' },
        updatedBy: outsider.uuid,
      });
      expect(
        await entities.restore(businessType, business.uuid, owner.uuid, owner.uuid),
      ).toBeNull();
      const trashed = await entities.trash(businessType, business.uuid, owner.uuid, owner.uuid);
      expect(trashed!.trashedAt).toBeInstanceOf(Date);
      expect(
        await entities.update(businessType, business.uuid, owner.uuid, owner.uuid, changed),
      ).toBeNull();
      expect(await entities.trash(businessType, business.uuid, owner.uuid, owner.uuid)).toBeNull();
      const restored = await entities.restore(businessType, business.uuid, owner.uuid, owner.uuid);
      expect(restored!.trashedAt).toBeNull();
    });
  });

  describe('reads', () => {
    it('finds the business of any record, a record’s parent, and which ids are the business’s menus', async () => {
      const { business, menu } = await catalog();
      const dish = await item(menu);
      const other = await catalog();
      expect(await entities.businessUuidOf(dish.uuid)).toBe(business.uuid);
      expect(await entities.businessUuidOf(menu.uuid)).toBe(business.uuid);
      expect(await entities.businessUuidOf(business.uuid)).toBe(business.uuid);
      expect(await entities.businessUuidOf(randomUUID())).toBeNull();
      expect(await entities.findParent(menu.uuid)).toEqual({
        uuid: menu.uuid,
        entityType: menuType.name,
        ownedBy: owner.uuid,
        trashedAt: null,
      });
      expect(
        await entities.menusOf(menuType, business.uuid, [menu.uuid, other.menu.uuid, dish.uuid]),
      ).toEqual([menu.uuid]);
    });

    it('a record under a disabled menu is hidden from outsiders, seen by its owner and the team', async () => {
      const { business, menu } = await catalog({ menu: 'disabled' });
      const dish = await item(menu);
      const staff = await newUser(ctx);
      await newMember(ctx, business, staff, 'staff');
      expect(await entities.findVisible(itemType, dish.uuid, undefined)).toBeNull();
      expect(await entities.findVisible(itemType, dish.uuid, outsider.uuid)).toBeNull();
      expect((await entities.findVisible(itemType, dish.uuid, owner.uuid))?.uuid).toBe(dish.uuid);
      expect(await entities.findVisible(itemType, dish.uuid, staff.uuid)).toBeNull();
      expect(
        (await entities.findVisible(itemType, dish.uuid, staff.uuid, [business.uuid]))?.uuid,
      ).toBe(dish.uuid);
    });

    it('finds public records by meta_key ignoring case, oldest first', async () => {
      const { menu } = await catalog();
      const key = `dish-${randomUUID().slice(0, 8)}`;
      const first = await item(menu, { metaKey: key });
      await item(menu, { metaKey: `${key}-other` });
      const found = await entities.findPublicByMetaKey(itemType, key.toUpperCase(), menu.uuid, 5);
      expect(found.map((record) => record.uuid)).toEqual([first.uuid]);
    });
  });

  describe('lists', () => {
    it('sorts by a numeric extra_data key as numbers, pages without overlap and counts the total', async () => {
      const { menu } = await catalog();
      const positions = [10, 2, '3', 'x', 1];
      const made = [];
      for (const position of positions) {
        made.push(await item(menu, { extraData: { sort_position: position } }));
      }
      const sorted = filter(itemType, {
        parentEntityUuid: menu.uuid,
        sort: { extraDataKey: 'sort_position', direction: 'asc' },
        perPage: 2,
      });
      const pages = [];
      for (const page of [1, 2, 3]) pages.push(await entities.list({ ...sorted, page }));
      expect(pages.map((answer) => answer.total)).toEqual([5, 5, 5]);
      expect(pages.flatMap((answer) => answer.records.map((record) => record.uuid))).toEqual(
        [made[4], made[1], made[2], made[0], made[3]].map((record) => record.uuid),
      );
      const past = await entities.list({ ...sorted, page: 9 });
      expect(past.records).toEqual([]);
      expect(past.total).toBe(5);
    });

    it('shows outsiders only public records, marks the team’s rows, and searches with LIKE wildcards taken literally', async () => {
      const { business, menu } = await catalog();
      const hidden = await item(menu, { status: 'disabled', titleName: '100% hidden' });
      const shown = await item(menu, { titleName: '100% shown' });
      await item(menu, { titleName: '1000 shown' });
      const listed = async (overrides: Partial<EntityListFilter>) =>
        (await entities.list(filter(itemType, { parentEntityUuid: menu.uuid, ...overrides })))
          .records;
      expect((await listed({ q: '100%' })).map((record) => record.uuid)).toEqual([shown.uuid]);
      expect(
        (await listed({ viewer: owner.uuid, q: '100%' })).map((record) => record.uuid),
      ).toEqual([hidden.uuid, shown.uuid]);
      const staff = await newUser(ctx);
      const team = await listed({ viewer: staff.uuid, memberOf: [business.uuid], q: '100%' });
      expect(team.map((record) => [record.uuid, record.member_row])).toEqual([
        [hidden.uuid, true],
        [shown.uuid, true],
      ]);
    });

    it('the fingerprint changes when a matching record changes, and the children version with every write', async () => {
      const { menu } = await catalog();
      const dish = await item(menu);
      const list = filter(itemType, { parentEntityUuid: menu.uuid });
      const before = await entities.listFingerprint(list);
      expect(before.total).toBe(1);
      await entities.update(
        itemType,
        dish.uuid,
        owner.uuid,
        owner.uuid,
        values({
          titleName: 'New name',
          parentEntityType: menuType.name,
          parentEntityUuid: menu.uuid,
        }),
      );
      const after = await entities.listFingerprint(list);
      expect(after.total).toBe(1);
      expect(after.fingerprint).not.toBe(before.fingerprint);
      expect(await entities.childrenVersion('not-a-uuid')).toBe('0');
    });
  });

  describe('storefront reads', () => {
    it('finds a public business and menu by meta_key ignoring case, nothing disabled or trashed', async () => {
      const { business, menu } = await catalog();
      const off = await newEntity(ctx, 'business', owner.uuid, { status: 'disabled' });
      const gone = await newEntity(ctx, 'business', owner.uuid, { trashed: true });
      expect(
        (await storefront.findPublicTopByMetaKey(businessType, business.metaKey.toUpperCase()))
          ?.uuid,
      ).toBe(business.uuid);
      expect(await storefront.findPublicTopByMetaKey(businessType, off.metaKey)).toBeNull();
      expect(await storefront.findPublicTopByMetaKey(businessType, gone.metaKey)).toBeNull();
      expect(
        (await storefront.findPublicChildByMetaKey(menuType, business.uuid, menu.metaKey))?.uuid,
      ).toBe(menu.uuid);
      expect(
        await storefront.findPublicChildByMetaKey(menuType, randomUUID(), menu.metaKey),
      ).toBeNull();
    });

    it('lists a menu’s public items in sort_position order, as numbers, up to the limit', async () => {
      const { menu } = await catalog();
      const ten = await item(menu, { extraData: { sort_position: 10 } });
      const two = await item(menu, { extraData: { sort_position: '2' } });
      await item(menu, { extraData: { sort_position: 1 }, status: 'disabled' });
      const none = await item(menu);
      const listed = await storefront.listPublicChildrenBySortPosition(itemType, menu.uuid, 10);
      expect(listed.map((record) => record.uuid)).toEqual([two.uuid, ten.uuid, none.uuid]);
      expect(
        await storefront.listPublicChildrenBySortPosition(itemType, menu.uuid, 1),
      ).toHaveLength(1);
    });
  });
});
