import {
  countEntities as countEntitiesOf,
  entityPath,
  EntityResponse,
  EntitySuffix,
  putEntity,
  storedEntity as storedEntityOf,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R47: roles.
// R49: access at every request.
/**
 * Every row of the roles table on the catalog (the business, its menus and
 * items), through the HTTP API: owner, manager and staff of one business,
 * and an outsider with a business of their own. Each refusal checks its
 * status and code and that nothing changed. The orders, members and
 * webhooks rows are in team-access-orders.e2e-spec.ts; the policy itself
 * in test/medium/team.medium-spec.ts.
 */
describe('teams: what each role may do on its business’s records', () => {
  let t: TestApp;
  let team: Team;
  let business: EntityResponse;
  let menu: EntityResponse;
  let item: EntityResponse;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    team = await newTeam(t);
    ({ business, menu } = team.catalog);
    item = team.catalog.items[0];
  });

  afterAll(async () => {
    await t.close();
  });

  const storedEntity = (uuid: string) => storedEntityOf(t, uuid);
  const put = (user: TestUser, suffix: EntitySuffix, uuid: string, body: object) =>
    putEntity(t, user, suffix, uuid, body);
  const countEntities = () => countEntitiesOf(t);

  /** An item body as stored now, for PUTs that change one thing. */
  async function currentItem(uuid = item.uuid): Promise<EntityResponse> {
    return expectOk(
      await t.http.get(entityPath(t, 'business_menu_item', uuid)).set(team.owner.headers),
    );
  }

  async function currentBusiness(): Promise<EntityResponse> {
    return expectOk(
      await t.http.get(entityPath(t, 'business', business.uuid)).set(team.owner.headers),
    );
  }

  describe('read the business, its menus and items (trashed and disabled included)', () => {
    let hidden: EntityResponse;

    beforeAll(async () => {
      hidden = expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item'))
          .set(team.owner.headers)
          .send({
            meta_key: 'hidden-dish',
            title_name: 'Hidden dish',
            status: 'disabled',
            parent_entity_type: `${t.config.namespace}_business_menu`,
            parent_entity_uuid: menu.uuid,
            extra_data: {
              unit_price_amount: '5.00',
              minimum_quantity_per_order: 1,
              maximum_quantity_per_order: 5,
            },
          }),
        201,
      );
    });

    it.each(['owner', 'manager', 'staff'] as const)(
      '%s reads a disabled item, one by one and in the list',
      async (who) => {
        const user = team[who];
        const one = expectOk(
          await t.http.get(entityPath(t, 'business_menu_item', hidden.uuid)).set(user.headers),
        );
        expect(one.uuid).toBe(hidden.uuid);
        const list = expectOk(
          await t.http
            .get(entityPath(t, 'business_menu_item'))
            .query({ parent_entity_uuid: menu.uuid, per_page: 100 })
            .set(user.headers),
        );
        expect(list.map((r: EntityResponse) => r.uuid)).toContain(hidden.uuid);
      },
    );

    it.each(['manager', 'staff'] as const)(
      '%s reads the business trashed, through its uuid',
      async (who) => {
        const second = expectOk(
          await t.http
            .post(entityPath(t, 'business_menu'))
            .set(team.owner.headers)
            .send({
              meta_key: `trashed-${who}`,
              title_name: 'Trashed menu',
              parent_entity_type: `${t.config.namespace}_business`,
              parent_entity_uuid: business.uuid,
              extra_data: { menu_base_wallet_ticker: 'NGN' },
            }),
          201,
        );
        expectOk(
          await t.http
            .post(entityPath(t, 'business_menu', 'trash', second.uuid))
            .set(team.owner.headers),
        );
        const one = expectOk(
          await t.http.get(entityPath(t, 'business_menu', second.uuid)).set(team[who].headers),
        );
        expect(one.trashed_at).not.toBeNull();
      },
    );

    it('an outsider reads neither the disabled item (404) nor it in lists', async () => {
      expectError(
        await t.http
          .get(entityPath(t, 'business_menu_item', hidden.uuid))
          .set(team.outsider.headers),
        404,
        'NOT_FOUND',
      );
      const list = expectOk(
        await t.http
          .get(entityPath(t, 'business_menu_item'))
          .query({ parent_entity_uuid: menu.uuid, per_page: 100 })
          .set(team.outsider.headers),
      );
      expect(list.map((r: EntityResponse) => r.uuid)).not.toContain(hidden.uuid);
    });

    it('a member never reads the disabled records of another business', async () => {
      const disabled = expectOk(
        await t.http
          .post(entityPath(t, 'business_menu_item'))
          .set(team.outsider.headers)
          .send({
            meta_key: 'outsider-hidden',
            status: 'disabled',
            parent_entity_type: `${t.config.namespace}_business_menu`,
            parent_entity_uuid: team.other.menu.uuid,
            extra_data: {
              unit_price_amount: '5.00',
              minimum_quantity_per_order: 1,
              maximum_quantity_per_order: 5,
            },
          }),
        201,
      );
      for (const who of ['manager', 'staff'] as const) {
        expectError(
          await t.http
            .get(entityPath(t, 'business_menu_item', disabled.uuid))
            .set(team[who].headers),
          404,
          'NOT_FOUND',
        );
      }
    });

    it('a list with owned_by=<owner> stays the owner’s own: a member sees only its public records', async () => {
      const list = expectOk(
        await t.http
          .get(entityPath(t, 'business_menu_item'))
          .query({ owned_by: team.owner.uuid, per_page: 100 })
          .set(team.staff.headers),
      );
      expect(list.map((r: EntityResponse) => r.uuid)).not.toContain(hidden.uuid);
      expect(list.map((r: EntityResponse) => r.uuid)).toContain(item.uuid);
    });
  });

  describe('create, update, trash, restore menus and items', () => {
    it.each(['owner', 'manager'] as const)(
      '%s creates a menu and an item (owned_by the business owner, updated_by the caller)',
      async (who) => {
        const user = team[who];
        const newMenu = expectOk(
          await t.http
            .post(entityPath(t, 'business_menu'))
            .set(user.headers)
            .send({
              meta_key: `menu-by-${who}`,
              title_name: `Menu by ${who}`,
              parent_entity_type: `${t.config.namespace}_business`,
              parent_entity_uuid: business.uuid,
              extra_data: { menu_base_wallet_ticker: 'NGN' },
            }),
          201,
        );
        expect(newMenu.owned_by).toBe(team.owner.uuid);
        expect(newMenu.updated_by).toBe(user.uuid);
        const newItem = expectOk(
          await t.http
            .post(entityPath(t, 'business_menu_item'))
            .set(user.headers)
            .send({
              meta_key: `item-by-${who}`,
              title_name: `Item by ${who}`,
              parent_entity_type: `${t.config.namespace}_business_menu`,
              parent_entity_uuid: newMenu.uuid,
              extra_data: {
                unit_price_amount: '3.00',
                minimum_quantity_per_order: 1,
                maximum_quantity_per_order: 5,
              },
            }),
          201,
        );
        expect(newItem.owned_by).toBe(team.owner.uuid);
        expect(newItem.updated_by).toBe(user.uuid);

        const renamed = expectOk(
          await put(user, 'business_menu_item', newItem.uuid, { title_name: 'Renamed' }),
        );
        expect(renamed).toMatchObject({
          title_name: 'Renamed',
          owned_by: team.owner.uuid,
          updated_by: user.uuid,
        });
        const trashed = expectOk(
          await t.http
            .post(entityPath(t, 'business_menu_item', 'trash', newItem.uuid))
            .set(user.headers),
        );
        expect(trashed.trashed_at).not.toBeNull();
        const restored = expectOk(
          await t.http
            .post(entityPath(t, 'business_menu_item', 'restore', newItem.uuid))
            .set(user.headers),
        );
        expect(restored.trashed_at).toBeNull();
        expect((await storedEntity(newItem.uuid)).updated_by).toBe(user.uuid);
      },
    );

    it('a member’s owned_by other than themself is 403 and nothing is created', async () => {
      const before = await countEntities();
      const res = await t.http
        .post(entityPath(t, 'business_menu'))
        .set(team.manager.headers)
        .send({
          meta_key: 'owned-by-owner',
          owned_by: team.owner.uuid,
          parent_entity_type: `${t.config.namespace}_business`,
          parent_entity_uuid: business.uuid,
          extra_data: { menu_base_wallet_ticker: 'NGN' },
        });
      expectError(res, 403, 'FORBIDDEN');
      expect(await countEntities()).toBe(before);
    });

    it('staff may not create, rename, trash or restore menus and items (403, nothing changes)', async () => {
      const before = await countEntities();
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu'))
          .set(team.staff.headers)
          .send({
            meta_key: 'menu-by-staff',
            parent_entity_type: `${t.config.namespace}_business`,
            parent_entity_uuid: business.uuid,
            extra_data: { menu_base_wallet_ticker: 'NGN' },
          }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu_item'))
          .set(team.staff.headers)
          .send({
            meta_key: 'item-by-staff',
            parent_entity_type: `${t.config.namespace}_business_menu`,
            parent_entity_uuid: menu.uuid,
            extra_data: {
              unit_price_amount: '3.00',
              minimum_quantity_per_order: 1,
              maximum_quantity_per_order: 5,
            },
          }),
        403,
        'FORBIDDEN',
      );
      expect(await countEntities()).toBe(before);
      const itemBefore = await storedEntity(item.uuid);
      const menuBefore = await storedEntity(menu.uuid);
      const current = await currentItem();
      expectError(
        await put(team.staff, 'business_menu_item', item.uuid, { title_name: 'Staff name' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await put(team.staff, 'business_menu_item', item.uuid, {
          extra_data: { ...current.extra_data, unit_price_amount: '0.01', available: false },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await put(team.staff, 'business_menu', menu.uuid, { title_name: 'Staff menu' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', item.uuid))
          .set(team.staff.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .delete(entityPath(t, 'business_menu', 'trash', menu.uuid))
          .set(team.staff.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu', 'restore', menu.uuid))
          .set(team.staff.headers),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(item.uuid)).toEqual(itemBefore);
      expect(await storedEntity(menu.uuid)).toEqual(menuBefore);
    });

    it.each(['owner', 'manager', 'staff'] as const)(
      '%s sets available (sold out) of the item and of an option through PUT of the item',
      async (who) => {
        const user = team[who];
        const current = await currentItem();
        const groups = current.extra_data.option_groups;
        const soldOut = expectOk(
          await put(user, 'business_menu_item', item.uuid, {
            extra_data: {
              ...current.extra_data,
              available: false,
              option_groups: [
                { ...groups[0], options: [{ ...groups[0].options[0], available: false }] },
              ],
            },
          }),
        );
        expect(soldOut.extra_data.available).toBe(false);
        expect(soldOut.extra_data.option_groups[0].options[0].available).toBe(false);
        expect(soldOut.updated_by).toBe(user.uuid);
        expect(soldOut.owned_by).toBe(team.owner.uuid);
        const back = expectOk(
          await put(user, 'business_menu_item', item.uuid, {
            extra_data: { ...current.extra_data, available: true },
          }),
        );
        expect(back.extra_data.available).toBe(true);
      },
    );

    it('an outsider may not write the team’s records (403, as for any other user’s record)', async () => {
      const before = await storedEntity(item.uuid);
      const current = await currentItem();
      expectError(
        await put(team.outsider, 'business_menu_item', item.uuid, {
          extra_data: { ...current.extra_data, available: false },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu_item', 'trash', item.uuid))
          .set(team.outsider.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(entityPath(t, 'business_menu'))
          .set(team.outsider.headers)
          .send({
            meta_key: 'intruder',
            parent_entity_type: `${t.config.namespace}_business`,
            parent_entity_uuid: business.uuid,
            extra_data: { menu_base_wallet_ticker: 'NGN' },
          }),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(item.uuid)).toEqual(before);
    });

    it('a manager may not move an item to another business’s menu (403)', async () => {
      const before = await storedEntity(item.uuid);
      expectError(
        await put(team.manager, 'business_menu_item', item.uuid, {
          parent_entity_uuid: team.other.menu.uuid,
        }),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(item.uuid)).toEqual(before);
    });
  });

  describe('update the business record itself', () => {
    it('the owner updates the profile', async () => {
      const updated = expectOk(
        await put(team.owner, 'business', business.uuid, { description: 'New profile' }),
      );
      expect(updated).toMatchObject({ description: 'New profile', updated_by: team.owner.uuid });
    });

    it('a manager switches accepting_orders as read, seeing but never changing the owner’s private settings', async () => {
      const owners = await currentBusiness();
      expectOk(
        await put(team.owner, 'business', business.uuid, {
          extra_data: { ...owners.extra_data, private_note: 'safe code 1234' },
        }),
      );
      const seen: EntityResponse = expectOk(
        await t.http.get(entityPath(t, 'business', business.uuid)).set(team.manager.headers),
      );
      expect(seen.extra_data.private_note).toBe('safe code 1234');
      const closed = expectOk(
        await put(team.manager, 'business', business.uuid, {
          extra_data: { ...seen.extra_data, accepting_orders: false, private_note: 'changed' },
        }),
      );
      expect(closed.extra_data.accepting_orders).toBe(false);
      expect(closed.extra_data.private_note).toBe('safe code 1234');
      expect((await currentBusiness()).extra_data.private_note).toBe('safe code 1234');
      expect((await storedEntity(business.uuid)).extra_data.private_note).toBe('safe code 1234');
    });

    it('a manager may switch accepting_orders only', async () => {
      const current = await currentBusiness();
      const closed = expectOk(
        await put(team.manager, 'business', business.uuid, {
          extra_data: { ...current.extra_data, accepting_orders: false },
        }),
      );
      expect(closed.extra_data.accepting_orders).toBe(false);
      expect(closed.updated_by).toBe(team.manager.uuid);
      const open = expectOk(
        await put(team.manager, 'business', business.uuid, {
          extra_data: { ...current.extra_data, accepting_orders: true },
        }),
      );
      expect(open.extra_data.accepting_orders).toBe(true);

      const before = await storedEntity(business.uuid);
      expectError(
        await put(team.manager, 'business', business.uuid, { title_name: 'Manager’s name' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await put(team.manager, 'business', business.uuid, {
          extra_data: {
            ...current.extra_data,
            accepting_orders: false,
            business_address: 'Elsewhere',
          },
        }),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(business.uuid)).toEqual(before);
    });

    it('staff may not update the business, not even accepting_orders (403)', async () => {
      const current = await currentBusiness();
      const before = await storedEntity(business.uuid);
      expectError(
        await put(team.staff, 'business', business.uuid, {
          extra_data: { ...current.extra_data, accepting_orders: false },
        }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await put(team.staff, 'business', business.uuid, { description: 'Staff' }),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(business.uuid)).toEqual(before);
    });
  });
});
