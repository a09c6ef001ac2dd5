import {
  entityPath,
  EntityResponse,
  EntitySuffix,
  putEntity,
  storedEntity as storedEntityOf,
} from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember, membersPath, newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R47: roles.
// R49: access at every request.
/**
 * Every row of the roles table on orders, members, webhooks and the
 * business's trash, through the HTTP API: owner, manager and staff of one
 * business, and an outsider with a business of their own. Each refusal
 * checks its status and code and that nothing changed.
 */
describe('teams: what each role may do on its business’s orders, members and webhooks', () => {
  let t: TestApp;
  let team: Team;
  let business: EntityResponse;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    team = await newTeam(t);
    ({ business } = team.catalog);
  });

  afterAll(async () => {
    await t.close();
  });

  const storedEntity = (uuid: string) => storedEntityOf(t, uuid);
  const put = (user: TestUser, suffix: EntitySuffix, uuid: string, body: object) =>
    putEntity(t, user, suffix, uuid, body);

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
