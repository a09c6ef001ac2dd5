import { entityPath } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

// R107: orders the team takes.
// R108: roles of §23.
/**
 * Orders taken by the team through their own route: channel and author on
 * every view, the opening hours and switch not applied, accepted at once on
 * request, and refused to anyone without a part in the business.
 */
describe('orders taken by the team', () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
  });

  afterAll(async () => {
    await t.close();
  });

  function staffOrder(
    user: TestUser,
    body: Record<string, unknown>,
    business = team.catalog.business.uuid,
  ) {
    return t.http.post(`${t.core}/businesses/${business}/orders`).set(user.headers).send(body);
  }

  function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const { customer_email_address: _email, ...rest } = orderBody(team.catalog);
    return { ...rest, channel: 'phone', ...overrides };
  }

  it('a member takes an order without an email; it names its channel and its author', async () => {
    for (const [user, role] of [
      [team.owner, 'owner'],
      [team.manager, 'manager'],
      [team.staff, 'staff'],
    ] as const) {
      const placed = expectOk(await staffOrder(user, body({ channel: 'walk_in' })), 201);
      expect(placed).toMatchObject({
        channel: 'walk_in',
        created_by: user.uuid,
        status: 'pending',
        customer_email_address: '',
        tab_uuid: null,
      });
      expect(placed.history[0]).toMatchObject({
        field: 'status',
        to: 'pending',
        by: user.uuid,
        actor: role,
      });
      expect(placed.items[0].line_uuid).toMatch(/^[0-9a-f-]{36}$/);
      // The team's inbox reads the same.
      const read = expectOk(
        await t.http.get(`${t.core}/orders/${placed.uuid}`).set(team.owner.headers),
      );
      expect(read).toMatchObject({ channel: 'walk_in', created_by: user.uuid });
      const [row] = await t.dataSource.query(
        'SELECT channel, created_by FROM orders WHERE uuid = $1',
        [placed.uuid],
      );
      expect(row).toEqual({ channel: 'walk_in', created_by: user.uuid });
    }
  });

  it('a guest’s order is online and its answers never name a member', async () => {
    const placed = await placeOrder(t, orderBody(team.catalog));
    expect(placed.channel).toBe('online');
    expect(placed).not.toHaveProperty('created_by');
    const guest = expectOk(
      await t.http
        .get(`${t.orders}/order/${placed.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': placed.order_token }),
    );
    expect(guest.channel).toBe('online');
    expect(guest).not.toHaveProperty('created_by');
  });

  it('the opening hours and the switch stop guests, not the team', async () => {
    const business = expectOk(
      await t.http
        .get(entityPath(t, 'business', team.catalog.business.uuid))
        .set(team.owner.headers),
    );
    const put = (accepting: boolean) =>
      t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(team.owner.headers)
        .send({ ...business, extra_data: { ...business.extra_data, accepting_orders: accepting } });
    expectOk(await put(false));
    try {
      const refused = await placeOrderRequest(t, orderBody(team.catalog));
      expectError(refused, 422, 'UNPROCESSABLE');
      const placed = expectOk(await staffOrder(team.staff, body()), 201);
      expect(placed.status).toBe('pending');
    } finally {
      expectOk(await put(true));
    }
  });

  it('"accept": true places it accepted, with its ready time, by the member', async () => {
    const placed = expectOk(
      await staffOrder(team.staff, body({ accept: true, channel: 'waiter' })),
      201,
    );
    expect(placed.status).toBe('accepted');
    expect(placed.estimated_ready_at).not.toBeNull();
    expect(placed.history.map((entry: any) => [entry.to, entry.actor, entry.by])).toEqual(
      expect.arrayContaining([
        ['pending', 'staff', team.staff.uuid],
        ['accepted', 'staff', team.staff.uuid],
      ]),
    );
  });

  it('the sales report counts sales by channel, and the CSV names each order’s channel', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = expectOk(
      await t.http
        .get(
          `${t.core}/businesses/${team.catalog.business.uuid}/reports/sales?from=${today}&to=${today}`,
        )
        .set(team.owner.headers),
    );
    // Only the accepted waiter's order is a sale; the pending ones are not.
    expect(report.by_channel).toEqual({ waiter: { orders: 1, total: expect.any(String) } });
    const csv = await t.http
      .get(
        `${t.core}/businesses/${team.catalog.business.uuid}/orders.csv?from=${today}&to=${today}`,
      )
      .set(team.owner.headers);
    expect(csv.status).toBe(200);
    const [header, ...rows] = csv.text.trim().split(/\r?\n/);
    expect(header.split(',').at(-1)).toBe('channel');
    expect(rows.map((row) => row.split(',').at(-1)).sort()).toEqual(
      expect.arrayContaining(['online', 'phone', 'waiter', 'walk_in']),
    );
  });

  it('the same rules as a guest’s order: a wrong amount is 422 and nothing is stored', async () => {
    const before = await rowCounts(t);
    const res = await staffOrder(team.staff, body({ amount: '0.01' }));
    expectError(res, 422, 'UNPROCESSABLE');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('refuses an outsider (404), another business’s menu (404) and a channel it does not know (400), storing nothing', async () => {
    const before = await rowCounts(t);
    expectError(await staffOrder(team.outsider, body()), 404, 'NOT_FOUND');
    // The outsider's own business, with the team's menu: the menu is not theirs.
    expectError(
      await staffOrder(team.outsider, body(), team.other.business.uuid),
      404,
      'NOT_FOUND',
    );
    expectError(
      await staffOrder(team.staff, body({ channel: 'online' })),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await staffOrder(team.staff, body({ channel: undefined })),
      400,
      'VALIDATION_FAILED',
    );
    expect(await rowCounts(t)).toEqual(before);
  });
});
