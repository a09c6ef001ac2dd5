import { entityPath, EntityResponse } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember, membersPath, newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R47: roles.
// R49: access at every request.
/**
 * Every row of the roles table, through the HTTP API: owner, manager and
 * staff of one business, and an outsider with a business of their own.
 * Each refusal checks its status and code and that nothing changed.
 */
describe('teams: what each role may do on its business', () => {
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

  async function storedEntity(uuid: string): Promise<Record<string, any>> {
    const rows = await t.dataSource.query('SELECT * FROM entities WHERE uuid = $1', [uuid]);
    return rows[0];
  }

  async function storedOrder(uuid: string): Promise<Record<string, any>> {
    const [order] = await t.dataSource.query('SELECT * FROM orders WHERE uuid = $1', [uuid]);
    const events = await t.dataSource.query(
      'SELECT * FROM order_events WHERE order_uuid = $1 ORDER BY id',
      [uuid],
    );
    const refunds = await t.dataSource.query(
      'SELECT * FROM payment_refunds WHERE order_uuid = $1',
      [uuid],
    );
    return { order, events, refunds };
  }

  async function countEntities(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM entities');
    return row.n;
  }

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

  function put(
    user: TestUser,
    suffix: 'business' | 'business_menu' | 'business_menu_item',
    uuid: string,
    body: object,
  ) {
    return t.http
      .put(entityPath(t, suffix, uuid))
      .set(user.headers)
      .send(body);
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

  describe('orders: the inbox, one order, notifications, status, payment and refunds', () => {
    let order: any;
    let otherOrder: any;

    beforeAll(async () => {
      order = await placeOrder(t, orderBody(team.catalog));
      otherOrder = await placeOrder(t, orderBody(team.other));
    });

    it.each(['owner', 'manager', 'staff'] as const)(
      '%s sees the order in the inbox, reads it, and gets its notification',
      async (who) => {
        const user = team[who];
        const inbox = expectOk(await t.http.get(`${t.core}/orders`).set(user.headers));
        const uuids = inbox.map((o: any) => o.uuid);
        expect(uuids).toContain(order.uuid);
        expect(uuids).not.toContain(otherOrder.uuid);
        const narrowed = expectOk(
          await t.http
            .get(`${t.core}/orders`)
            .query({ business_uuid: business.uuid })
            .set(user.headers),
        );
        expect(narrowed.every((o: any) => o.business_uuid === business.uuid)).toBe(true);
        expect(narrowed.map((o: any) => o.uuid)).toContain(order.uuid);
        expect(
          expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(user.headers)).uuid,
        ).toBe(order.uuid);
        const notifications = expectOk(
          await t.http.get(`${t.core}/notification/user/${user.uuid}`).set(user.headers),
        );
        expect(notifications.some((n: any) => n.data?.order_uuid === order.uuid)).toBe(true);
      },
    );

    it('a member reads no order of another business (403) and the outsider none of the team’s', async () => {
      for (const who of ['manager', 'staff'] as const) {
        expectError(
          await t.http.get(`${t.core}/orders/${otherOrder.uuid}`).set(team[who].headers),
          403,
          'FORBIDDEN',
        );
      }
      expectError(
        await t.http.get(`${t.core}/orders/${order.uuid}`).set(team.outsider.headers),
        403,
        'FORBIDDEN',
      );
      const inbox = expectOk(await t.http.get(`${t.core}/orders`).set(team.outsider.headers));
      expect(inbox.map((o: any) => o.uuid)).not.toContain(order.uuid);
      const notifications = expectOk(
        await t.http
          .get(`${t.core}/notification/user/${team.outsider.uuid}`)
          .set(team.outsider.headers),
      );
      expect(notifications.some((n: any) => n.data?.order_uuid === order.uuid)).toBe(false);
    });

    it('payment verify: members pass the access check (a cash order is then 422), the outsider is 403', async () => {
      const verify = (user: TestUser) =>
        t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(user.headers);
      for (const who of ['owner', 'manager', 'staff'] as const) {
        expectError(await verify(team[who]), 422, 'UNPROCESSABLE');
      }
      const before = await storedOrder(order.uuid);
      expectError(await verify(team.outsider), 403, 'FORBIDDEN');
      expect(await storedOrder(order.uuid)).toEqual(before);
    });

    it('owner, manager and staff move the status and write the owner note; the history names who and their role', async () => {
      const steps: Array<[keyof Team & ('owner' | 'manager' | 'staff'), Record<string, unknown>]> =
        [
          ['staff', { status: 'accepted' }],
          ['manager', { status: 'preparing' }],
          ['owner', { owner_note: 'Extra napkins' }],
          ['staff', { owner_note: 'Napkins packed' }],
        ];
      for (const [who, body] of steps) {
        const updated = expectOk(await updateOrderRequest(t, team[who].headers, order.uuid, body));
        expect(updated.history.at(-1)).toMatchObject({ by: team[who].uuid, actor: who });
      }
    });

    it('the outsider may not update the order (403, nothing changes)', async () => {
      const before = await storedOrder(order.uuid);
      expectError(
        await updateOrderRequest(t, team.outsider.headers, order.uuid, { status: 'ready' }),
        403,
        'FORBIDDEN',
      );
      expect(await storedOrder(order.uuid)).toEqual(before);
    });

    it('staff may not set payment_status by hand nor refund (403, nothing changes)', async () => {
      const before = await storedOrder(order.uuid);
      expectError(
        await updateOrderRequest(t, team.staff.headers, order.uuid, { payment_status: 'paid' }),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http
          .post(`${t.orders}/admin/order/refund/${order.uuid}`)
          .set(team.staff.headers)
          .send({}),
        403,
        'FORBIDDEN',
      );
      expect(await storedOrder(order.uuid)).toEqual(before);
    });

    it('a manager sets payment_status by hand and refunds; the history says manager', async () => {
      const paid = expectOk(
        await updateOrderRequest(t, team.manager.headers, order.uuid, { payment_status: 'paid' }),
      );
      expect(paid.payment_status).toBe('paid');
      expect(paid.history.at(-1)).toMatchObject({
        field: 'payment',
        by: team.manager.uuid,
        actor: 'manager',
      });
      const refunded = expectOk(
        await t.http
          .post(`${t.orders}/admin/order/refund/${order.uuid}`)
          .set(team.manager.headers)
          .send({ amount: '1.00' }),
      );
      expect(refunded.payment.amount_refunded).toBe('1.00');
      expect(refunded.history.at(-1)).toMatchObject({ by: team.manager.uuid, actor: 'manager' });
    });

    it('the owner refunds the rest; the outsider may not (403, nothing changes)', async () => {
      const before = await storedOrder(order.uuid);
      expectError(
        await t.http
          .post(`${t.orders}/admin/order/refund/${order.uuid}`)
          .set(team.outsider.headers)
          .send({}),
        403,
        'FORBIDDEN',
      );
      expect(await storedOrder(order.uuid)).toEqual(before);
      const refunded = expectOk(
        await t.http
          .post(`${t.orders}/admin/order/refund/${order.uuid}`)
          .set(team.owner.headers)
          .send({}),
      );
      expect(refunded.payment_status).toBe('refunded');
      expect(refunded.history.at(-1)).toMatchObject({ by: team.owner.uuid, actor: 'owner' });
    });
  });

  describe('members, webhooks and trashing the business', () => {
    async function memberRows() {
      return t.dataSource.query(
        'SELECT * FROM business_members WHERE business_uuid = $1 ORDER BY uuid',
        [business.uuid],
      );
    }

    it('owner and manager list the members; staff may not (403)', async () => {
      for (const who of ['owner', 'manager'] as const) {
        const list = expectOk(
          await t.http.get(membersPath(t, business.uuid)).set(team[who].headers),
        );
        expect(list.map((m: any) => m.user_uuid)).toEqual(
          expect.arrayContaining([team.manager.uuid, team.staff.uuid]),
        );
      }
      expectError(
        await t.http.get(membersPath(t, business.uuid)).set(team.staff.headers),
        403,
        'FORBIDDEN',
      );
    });

    it('only the owner invites, changes roles and removes: manager and staff are 403 and nothing changes', async () => {
      const rows = await memberRows();
      const staffRow = rows.find((r: any) => r.user_uuid === team.staff.uuid);
      for (const who of ['manager', 'staff'] as const) {
        const headers = team[who].headers;
        expectError(
          await t.http
            .post(membersPath(t, business.uuid))
            .set(headers)
            .send({ email: 'new@example.test', role: 'staff' }),
          403,
          'FORBIDDEN',
        );
        expectError(
          await t.http
            .put(membersPath(t, business.uuid, staffRow.uuid))
            .set(headers)
            .send({ role: 'manager' }),
          403,
          'FORBIDDEN',
        );
      }
      expectError(
        await t.http.delete(membersPath(t, business.uuid, staffRow.uuid)).set(team.manager.headers),
        403,
        'FORBIDDEN',
      );
      expect(await memberRows()).toEqual(rows);
    });

    it('webhooks for the business are the owner’s: a manager’s is 403', async () => {
      const [{ n: before }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM webhook_endpoints',
      );
      for (const who of ['manager', 'staff'] as const) {
        expectError(
          await t.http
            .post(`${t.core}/webhooks`)
            .set(team[who].headers)
            .send({
              url: 'http://127.0.0.1:9/hook',
              events: ['order.created'],
              business_uuid: business.uuid,
            }),
          403,
          'FORBIDDEN',
        );
      }
      const [{ n: after }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM webhook_endpoints',
      );
      expect(after).toBe(before);
    });

    it('manager and staff may not trash the business (403); the owner may', async () => {
      const before = await storedEntity(business.uuid);
      for (const who of ['manager', 'staff'] as const) {
        expectError(
          await t.http
            .post(entityPath(t, 'business', 'trash', business.uuid))
            .set(team[who].headers),
          403,
          'FORBIDDEN',
        );
      }
      expect(await storedEntity(business.uuid)).toEqual(before);
    });
  });

  describe('access follows the membership at every request', () => {
    it('a lowered role is refused on the next request; a removed member reads nothing more', async () => {
      const cast = await newTeam(t);
      const biz = cast.catalog.business.uuid;
      const rows = await t.dataSource.query(
        'SELECT uuid FROM business_members WHERE business_uuid = $1 AND user_uuid = $2',
        [biz, cast.manager.uuid],
      );
      expectOk(await t.http.get(membersPath(t, biz)).set(cast.manager.headers));
      expectOk(
        await t.http
          .put(membersPath(t, biz, rows[0].uuid))
          .set(cast.owner.headers)
          .send({ role: 'staff' }),
      );
      expectError(
        await t.http.get(membersPath(t, biz)).set(cast.manager.headers),
        403,
        'FORBIDDEN',
      );

      const order = await placeOrder(t, orderBody(cast.catalog));
      expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(cast.manager.headers));
      expectOk(await t.http.delete(membersPath(t, biz, rows[0].uuid)).set(cast.owner.headers));
      expectError(
        await t.http.get(`${t.core}/orders/${order.uuid}`).set(cast.manager.headers),
        403,
        'FORBIDDEN',
      );
      const inbox = expectOk(await t.http.get(`${t.core}/orders`).set(cast.manager.headers));
      expect(inbox.map((o: any) => o.uuid)).not.toContain(order.uuid);
      const before = await storedEntity(cast.catalog.items[0].uuid);
      expectError(
        await put(cast.manager, 'business_menu_item', cast.catalog.items[0].uuid, {
          title_name: 'After removal',
        }),
        403,
        'FORBIDDEN',
      );
      expect(await storedEntity(cast.catalog.items[0].uuid)).toEqual(before);
      // And rejoining works again.
      await addMember(t, cast.owner, biz, cast.manager, 'manager');
      expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(cast.manager.headers));
    });
  });
});
