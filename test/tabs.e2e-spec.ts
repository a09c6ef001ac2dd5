import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { guestHeaders, openStream, orderBody, placeOrderRequest } from './support/order';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R109: rounds join the table's tab; a stranger's round is 409.
// R110: the tab token.
// R111: shares sum to the amount due exactly.
// R112: a settling tab takes no round; a new split replaces unpaid shares only.
// R113: closing.
/**
 * A table's evening through HTTP: the party's rounds on one tab, a stranger
 * who knows the table number refused, the bill read and split, and the tab
 * closed by a manager; every refusal stores nothing.
 */
describe('tabs: a table that orders in rounds and pays at the end', () => {
  let t: TestApp;
  let owner: TestUser;
  let manager: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let catalog: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    [owner, manager, staff, outsider] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    catalog = await newCatalog(t, owner, {
      menu: {
        extra_data: { fulfilment: { modes: ['dine_in', 'pickup'], dine_in: { pay_at_end: true } } },
      },
      items: [
        { extra_data: { unit_price_amount: '10.00' } },
        { extra_data: { unit_price_amount: '3.33' } },
      ],
    });
    await addMember(t, owner, catalog.business.uuid, manager, 'manager');
    await addMember(t, owner, catalog.business.uuid, staff, 'staff');
  });

  afterAll(async () => {
    await t.close();
  });

  function round(table: string, extra: Record<string, unknown> = {}, quantities = [1, 1]) {
    const amount = (quantities[0] * 1000 + quantities[1] * 333) / 100;
    return orderBody(catalog, {
      amount,
      onpremise_data: { customer_onpremise_location: table },
      cart_items: catalog.items.map((item, index) => ({
        uuid: item.uuid,
        quantity: quantities[index],
      })),
      ...extra,
    });
  }

  async function counts() {
    const [row] = await t.dataSource.query(
      `SELECT (SELECT count(*) FROM orders)::int AS orders,
              (SELECT count(*) FROM tabs)::int AS tabs,
              (SELECT count(*) FROM tab_shares)::int AS shares,
              (SELECT count(*) FROM payments)::int AS payments`,
    );
    return row;
  }

  const guestTab = (uuid: string, token: string) =>
    t.http.get(`${t.orders}/tab/${uuid}`).set({ ...guestHeaders(t), 'x-tab-token': token });

  it('the party’s rounds share a tab; a stranger cannot add to it or read it', async () => {
    const first = expectOk(await placeOrderRequest(t, round('table_7')), 201);
    expect(first.payment_status).toBe('on_tab');
    expect(first.payments).toEqual([]);
    expect(first.tab).toEqual({ uuid: first.tab_uuid, tab_token: expect.any(String) });
    expect(first.tab.tab_token.length).toBeGreaterThanOrEqual(22);
    const { uuid: tabUuid, tab_token: token } = first.tab;

    // A stranger who knows the table number: 409 naming the table, nothing stored.
    const before = await counts();
    const stranger = await placeOrderRequest(t, round('table_7'));
    expectError(stranger, 409, 'CONFLICT');
    expect(stranger.body.error.details[0].field).toBe('customer_onpremise_location');
    expectError(
      await placeOrderRequest(t, round('table_7', { tab_token: 'x'.repeat(43) })),
      409,
      'CONFLICT',
    );
    expect(await counts()).toEqual(before);
    expectError(await guestTab(tabUuid, 'x'.repeat(43)), 404, 'NOT_FOUND');
    expectError(await guestTab(tabUuid, ''), 404, 'NOT_FOUND');

    // The party's second round, and the waiter's for the same table.
    const second = expectOk(
      await placeOrderRequest(t, round('table_7', { tab_token: token })),
      201,
    );
    expect(second.tab_uuid).toBe(tabUuid);
    const waiter = expectOk(
      await t.http
        .post(`${t.core}/businesses/${catalog.business.uuid}/orders`)
        .set(staff.headers)
        .send({ ...round('table_7', {}, [2, 1]), channel: 'waiter' }),
      201,
    );
    expect(waiter.tab_uuid).toBe(tabUuid);

    const tab = expectOk(await guestTab(tabUuid, token));
    expect(tab).toMatchObject({
      uuid: tabUuid,
      table: 'table_7',
      status: 'open',
      total: '49.99',
      paid: '0.00',
      due: '49.99',
    });
    expect(tab.rounds).toHaveLength(3);
    for (const r of tab.rounds) expect(r).not.toHaveProperty('created_by');

    // The team reads it; an outsider does not learn it exists.
    const forStaff = expectOk(await t.http.get(`${t.core}/tabs/${tabUuid}`).set(staff.headers));
    expect(forStaff.rounds[2].created_by).toBe(staff.uuid);
    expectError(
      await t.http.get(`${t.core}/tabs/${tabUuid}`).set(outsider.headers),
      404,
      'NOT_FOUND',
    );
    const listed = expectOk(
      await t.http
        .get(`${t.core}/businesses/${catalog.business.uuid}/tabs?status=open`)
        .set(staff.headers),
    );
    expect(listed.map((x: any) => x.uuid)).toContain(tabUuid);
    expectError(
      await t.http.get(`${t.core}/businesses/${catalog.business.uuid}/tabs`).set(outsider.headers),
      404,
      'NOT_FOUND',
    );
  });

  it('splits the bill exactly, refuses a bad split with nothing changed, and takes no round while settling', async () => {
    const first = expectOk(await placeOrderRequest(t, round('table_8', {}, [1, 2])), 201);
    const { uuid, tab_token: token } = first.tab;
    const split = (body: object) =>
      t.http
        .post(`${t.orders}/tab/${uuid}/split`)
        .set({ ...guestHeaders(t), 'x-tab-token': token })
        .send(body);

    // 16.66 in three: 5.56, 5.55, 5.55.
    const equal = expectOk(await split({ by: 'equal', parts: 3 }));
    expect(equal.status).toBe('settling');
    expect(equal.shares.map((s: any) => s.amount)).toEqual(['5.56', '5.55', '5.55']);

    const before = await counts();
    const wrongSum = await split({ by: 'amount', amounts: ['10.00', '6.00'] });
    expectError(wrongSum, 422, 'UNPROCESSABLE');
    expect(wrongSum.body.error.details[0].field).toBe('amounts');
    const lines = first.items.map((line: any) => ({
      order_uuid: first.uuid,
      line_uuid: line.line_uuid,
      quantity: line.quantity,
    }));
    expectError(
      await split({ by: 'items', shares: [{ lines: [lines[0]] }] }),
      422,
      'UNPROCESSABLE',
    );
    expectError(await split({ by: 'equal', parts: 0 }), 400, 'VALIDATION_FAILED');
    expectError(await split({ by: 'thirds' }), 400, 'VALIDATION_FAILED');
    expect(await counts()).toEqual(before);
    const stillEqual = expectOk(await guestTab(uuid, token));
    expect(stillEqual.shares.map((s: any) => s.amount)).toEqual(['5.56', '5.55', '5.55']);

    // By items: the 10.00 line alone, and the two 3.33 split one each with nothing else.
    const byItems = expectOk(
      await split({
        by: 'items',
        shares: [
          { lines: [lines[0]] },
          { lines: [{ ...lines[1], quantity: 1 }] },
          { lines: [{ ...lines[1], quantity: 1 }] },
        ],
      }),
    );
    expect(byItems.shares.map((s: any) => s.amount)).toEqual(['10.00', '3.33', '3.33']);
    const byAmount = expectOk(await split({ by: 'amount', amounts: ['16.00', '0.66'] }));
    expect(byAmount.shares.map((s: any) => s.amount)).toEqual(['16.00', '0.66']);

    // Settling: the party's next round, and the waiter's, are 409 with nothing stored.
    const settled = await counts();
    expectError(
      await placeOrderRequest(t, round('table_8', { tab_token: token })),
      409,
      'CONFLICT',
    );
    expectError(
      await t.http
        .post(`${t.core}/businesses/${catalog.business.uuid}/orders`)
        .set(staff.headers)
        .send({ ...round('table_8'), channel: 'waiter', tab_uuid: uuid }),
      409,
      'CONFLICT',
    );
    expect(await counts()).toEqual(settled);
  });

  it('closing with money due is for owner and manager, with a reason; the spent token opens nothing new', async () => {
    const first = expectOk(await placeOrderRequest(t, round('table_9')), 201);
    const { uuid, tab_token: token } = first.tab;
    const close = (user: TestUser, body: object) =>
      t.http.post(`${t.core}/tabs/${uuid}/close`).set(user.headers).send(body);
    expectError(await close(staff, { reason: 'left' }), 403, 'FORBIDDEN');
    expectError(await close(manager, {}), 422, 'UNPROCESSABLE');
    expectError(await close(outsider, { reason: 'x' }), 404, 'NOT_FOUND');
    expect(expectOk(await guestTab(uuid, token)).status).toBe('open');

    const closed = expectOk(await close(manager, { reason: 'Walked out' }));
    expect(closed).toMatchObject({ status: 'closed', close_reason: 'Walked out', due: '13.33' });
    expect(closed.closed_at).not.toBeNull();
    const [row] = await t.dataSource.query(
      'SELECT closed_by, closed_by_role FROM tabs WHERE uuid = $1',
      [uuid],
    );
    expect(row).toEqual({ closed_by: manager.uuid, closed_by_role: 'manager' });
    expectError(await close(owner, { reason: 'again' }), 409, 'CONFLICT');

    // The spent token is 409; the next party without one starts a new tab.
    const before = await counts();
    expectError(
      await placeOrderRequest(t, round('table_9', { tab_token: token })),
      409,
      'CONFLICT',
    );
    expect(await counts()).toEqual(before);
    const next = expectOk(await placeOrderRequest(t, round('table_9')), 201);
    expect(next.tab.uuid).not.toBe(uuid);
  });

  it('two first rounds for one table at once open one tab: one party gets it, the other 409', async () => {
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => placeOrderRequest(t, round('table_10'))),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const [row] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM tabs WHERE menu_uuid = $1 AND "table" = 'table_10'`,
      [catalog.menu.uuid],
    );
    expect(row.n).toBe(1);
  });

  it('the party follows its tab’s rounds on a stream; a wrong token is 404', async () => {
    const first = expectOk(await placeOrderRequest(t, round('table_11')), 201);
    const { uuid, tab_token: token } = first.tab;
    const path = `${t.orders}/tab/${uuid}/stream`;
    const api_key = t.config.apiKeys[0];
    const refused = await openStream(t.baseUrl, path, { api_key, tab_token: 'x'.repeat(43) });
    expect(refused.status).toBe(404);
    const stream = await openStream(t.baseUrl, path, { api_key, tab_token: token });
    try {
      expect(stream.status).toBe(200);
      const next = expectOk(
        await placeOrderRequest(t, round('table_11', { tab_token: token })),
        201,
      );
      const event = await stream.waitFor(
        (e) => e.event === 'order.created' && e.data.uuid === next.uuid,
      );
      expect(event.data).not.toHaveProperty('created_by');
    } finally {
      stream.close();
    }
  });

  it('a menu without pay_at_end, and a pickup order, never open a tab', async () => {
    const plain = await newCatalog(t, owner, { items: [{}] });
    const placed = expectOk(
      await placeOrderRequest(
        t,
        orderBody(plain, { onpremise_data: { customer_onpremise_location: 'table_7' } }),
      ),
      201,
    );
    expect(placed.tab_uuid).toBeNull();
    expect(placed).not.toHaveProperty('tab');
    expect(placed.payment_status).toBe('unpaid');
    const pickup = expectOk(
      await placeOrderRequest(t, round('_', { fulfilment_type: 'pickup' })),
      201,
    );
    expect(pickup.tab_uuid).toBeNull();
  });
});
