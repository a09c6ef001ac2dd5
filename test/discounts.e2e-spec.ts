import { newCatalog, newMenu } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { TestUser } from './support/factory';
import {
  guestHeaders,
  orderBody,
  placeOrder,
  placeOrderRequest,
  rowCounts,
  updateOrderRequest,
} from './support/order';
import { newTeam, Team } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

let seq = 0;
const uniqueCode = (prefix = 'CODE') =>
  `${prefix}-${Date.now().toString(36)}-${++seq}`.toUpperCase();

// R59: discount codes.
describe('discount codes', () => {
  let t: TestApp;
  let team: Team;

  beforeAll(async () => {
    t = await startTestApp();
    team = await newTeam(t);
  });
  afterAll(() => t?.close());

  const path = (business: string, ...rest: string[]) =>
    [`${t.core}/businesses/${business}/discounts`, ...rest].join('/');
  const business = () => team.catalog.business.uuid;
  // The team's catalog has one item at 10.00.
  const item = () => team.catalog.items[0];

  async function createCode(body: Record<string, unknown>, user: TestUser = team.owner) {
    const res = await t.http
      .post(path(business()))
      .set(user.headers)
      .send({ code: uniqueCode(), kind: 'percent', value: '10', ...body });
    return expectOk(res, 201);
  }

  function order(code: string, overrides: Record<string, unknown> = {}) {
    return orderBody(team.catalog, {
      cart_items: [{ uuid: item().uuid, quantity: 2 }],
      discount_code: code,
      ...overrides,
    });
  }

  const discountCount = async () =>
    (await t.dataSource.query('SELECT count(*)::int AS n FROM discounts'))[0].n as number;

  describe('management', () => {
    it('owner and manager create, list, read, change and delete; staff is 403', async () => {
      const created = await createCode({ code: 'welcome10', minimum_order_amount: 20 });
      expect(created).toMatchObject({
        code: 'WELCOME10',
        kind: 'percent',
        value: '10',
        minimum_order_amount: '20.00',
        enabled: true,
        redemptions: 0,
      });
      const byManager = await createCode({ kind: 'fixed', value: 2.5 }, team.manager);
      expect(byManager.value).toBe('2.5');

      const list = expectOk(await t.http.get(path(business())).set(team.manager.headers));
      expect(list.map((d: { uuid: string }) => d.uuid)).toEqual(
        expect.arrayContaining([created.uuid, byManager.uuid]),
      );
      const changed = expectOk(
        await t.http
          .put(path(business(), created.uuid))
          .set(team.manager.headers)
          .send({ value: '15', max_redemptions: 5 }),
      );
      expect(changed).toMatchObject({ value: '15', max_redemptions: 5, code: 'WELCOME10' });

      const before = await discountCount();
      for (const [method, url] of [
        ['post', path(business())],
        ['get', path(business())],
        ['get', path(business(), created.uuid)],
        ['put', path(business(), created.uuid)],
        ['delete', path(business(), created.uuid)],
      ] as const) {
        const res = await t.http[method](url)
          .set(team.staff.headers)
          .send(
            method === 'post' ? { code: 'STAFFCODE', kind: 'percent', value: '5' } : { value: '1' },
          );
        expectError(res, 403, 'FORBIDDEN');
      }
      expect(await discountCount()).toBe(before);
      expect(
        expectOk(await t.http.get(path(business(), created.uuid)).set(team.owner.headers)).value,
      ).toBe('15');
    });

    it('keeps one business out of another (two users)', async () => {
      const code = await createCode({});
      const before = await discountCount();
      // The outsider, on the team's business: as if it did not exist.
      for (const res of [
        await t.http.get(path(business())).set(team.outsider.headers),
        await t.http.get(path(business(), code.uuid)).set(team.outsider.headers),
        await t.http
          .put(path(business(), code.uuid))
          .set(team.outsider.headers)
          .send({ value: '99' }),
        await t.http.delete(path(business(), code.uuid)).set(team.outsider.headers),
        await t.http
          .post(path(business()))
          .set(team.outsider.headers)
          .send({ code: 'INTRUDER', kind: 'percent', value: '5' }),
      ]) {
        expectError(res, 404, 'NOT_FOUND');
      }
      // The outsider's own business does not reach the team's code either.
      const other = team.other.business.uuid;
      expectError(
        await t.http.get(path(other, code.uuid)).set(team.outsider.headers),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.http.put(path(other, code.uuid)).set(team.outsider.headers).send({ value: '99' }),
        404,
        'NOT_FOUND',
      );
      expect(await discountCount()).toBe(before);
      expect(
        expectOk(await t.http.get(path(business(), code.uuid)).set(team.owner.headers)).value,
      ).toBe('10');
      // A guest of the outsider's menu cannot use the team's code: "not valid", nothing more.
      const res = await placeOrderRequest(t, orderBody(team.other, { discount_code: code.code }));
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0]).toMatchObject({
        field: 'discount_code',
        message: `The code ${code.code} is not valid.`,
      });
    });

    it.each([
      ['a code too short', { code: 'AB' }, 'code'],
      ['a code with a space', { code: 'TEN OFF' }, 'code'],
      ['an unknown kind', { kind: 'bogo' }, 'kind'],
      ['a percent above 100', { value: '100.01' }, 'value'],
      ['a percent with 5 decimals', { value: '1.00001' }, 'value'],
      ['a fixed value of 0', { kind: 'fixed', value: '0' }, 'value'],
      ['a fixed value with 3 decimals', { kind: 'fixed', value: '1.005' }, 'value'],
      ['a value that is not a decimal', { value: 'ten' }, 'value'],
      ['a negative minimum', { minimum_order_amount: '-1' }, 'minimum_order_amount'],
      ['a minimum with 3 decimals', { minimum_order_amount: '1.005' }, 'minimum_order_amount'],
      [
        'starts_at after ends_at',
        { starts_at: '2030-02-01T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' },
        'ends_at',
      ],
      ['starts_at not a date', { starts_at: 'tomorrow' }, 'starts_at'],
      ['max_redemptions of 0', { max_redemptions: 0 }, 'max_redemptions'],
      [
        'max_redemptions_per_email of 0',
        { max_redemptions_per_email: 0 },
        'max_redemptions_per_email',
      ],
      ['menu_uuids not uuids', { menu_uuids: ['x'] }, 'menu_uuids'],
      ['enabled not a boolean', { enabled: 'yes' }, 'enabled'],
    ])('refuses %s with 400 on the field, storing nothing', async (_name, body, field) => {
      const before = await discountCount();
      const res = await t.http
        .post(path(business()))
        .set(team.owner.headers)
        .send({ code: uniqueCode(), kind: 'percent', value: '10', ...body });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await discountCount()).toBe(before);
    });

    // R76: a code's menus are the business's.
    it("refuses menu_uuids naming another business's menu, an unknown uuid or none with 422, on create and update, storing nothing", async () => {
      const kept = await createCode({ menu_uuids: [team.catalog.menu.uuid] });
      const before = await discountCount();
      const stored = async () =>
        (
          await t.dataSource.query('SELECT menu_uuids FROM discounts WHERE uuid = $1', [kept.uuid])
        )[0].menu_uuids;
      for (const menus of [
        [team.other.menu.uuid],
        [team.catalog.menu.uuid, '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b'],
        [team.catalog.business.uuid],
        [],
      ]) {
        const created = await t.http
          .post(path(business()))
          .set(team.manager.headers)
          .send({ code: uniqueCode(), kind: 'percent', value: '10', menu_uuids: menus });
        expectError(created, 422, 'UNPROCESSABLE');
        expect(created.body.error.details.map((d: { field: string }) => d.field)).toEqual([
          'menu_uuids',
        ]);
        const updated = await t.http
          .put(path(business(), kept.uuid))
          .set(team.owner.headers)
          .send({ menu_uuids: menus });
        expectError(updated, 422, 'UNPROCESSABLE');
        expect(updated.body.error.details[0].field).toBe('menu_uuids');
      }
      expect(await discountCount()).toBe(before);
      expect(await stored()).toEqual([team.catalog.menu.uuid]);
    });

    it('a code is unique per business without regard to case (409), also after it was deleted', async () => {
      const code = uniqueCode();
      const first = await createCode({ code });
      const before = await discountCount();
      const again = await t.http
        .post(path(business()))
        .set(team.manager.headers)
        .send({ code: code.toLowerCase(), kind: 'fixed', value: '1' });
      expectError(again, 409, 'CONFLICT');
      expect(again.body.error.details[0].field).toBe('code');
      const other = await createCode({});
      expectError(
        await t.http
          .put(path(business(), other.uuid))
          .set(team.owner.headers)
          .send({ code: code.toLowerCase() }),
        409,
        'CONFLICT',
      );
      expect(await discountCount()).toBe(before + 1);
      // Another business may have the same code.
      const res = await t.http
        .post(path(team.other.business.uuid))
        .set(team.outsider.headers)
        .send({ code, kind: 'percent', value: '5' });
      expectOk(res, 201);

      expectOk(await t.http.delete(path(business(), first.uuid)).set(team.owner.headers));
      expectError(
        await t.http.get(path(business(), first.uuid)).set(team.owner.headers),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.http
          .post(path(business()))
          .set(team.owner.headers)
          .send({ code, kind: 'percent', value: '5' }),
        409,
        'CONFLICT',
      );
      const refused = await placeOrderRequest(t, order(code, { amount: '18.00' }));
      expectError(refused, 422, 'UNPROCESSABLE');
      expect(refused.body.error.details[0].message).toContain('not valid');
    });
  });

  describe('at placement', () => {
    it('applies a percent code (any case) before tax and keeps it on the order', async () => {
      const code = await createCode({ value: '25' });
      const placed = await placeOrder(t, order(code.code.toLowerCase(), { amount: '15.00' }));
      expect(placed.pricing).toMatchObject({
        items_subtotal: '20.00',
        discount: '5.00',
        discount_code: code.code,
        total: '15.00',
      });
      const [row] = await t.dataSource.query(
        'SELECT discount_uuid::text AS d FROM orders WHERE uuid = $1',
        [placed.uuid],
      );
      expect(row.d).toBe(code.uuid);
      const read = expectOk(await t.http.get(path(business(), code.uuid)).set(team.owner.headers));
      expect(read.redemptions).toBe(1);
      // Deleting the code leaves the placed order's discount as it was.
      expectOk(await t.http.delete(path(business(), code.uuid)).set(team.owner.headers));
      const kept = expectOk(
        await t.http.get(`${t.core}/orders/${placed.uuid}`).set(team.owner.headers),
      );
      expect(kept.pricing.discount).toBe('5.00');
    });

    it('a fixed code takes at most the items subtotal', async () => {
      const code = await createCode({ kind: 'fixed', value: '50' });
      const placed = await placeOrder(t, order(code.code, { amount: '0.00' }));
      expect(placed.pricing).toMatchObject({ discount: '20.00', total: '0.00' });
    });

    it.each([
      ['unknown', () => ({ code: 'NO-SUCH-CODE' }), 'not valid'],
      ['disabled', async () => createCode({ enabled: false }), 'not active'],
      [
        'not started',
        async () =>
          createCode({ starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-02-01T00:00:00Z' }),
        'not valid before',
      ],
      ['expired', async () => createCode({ ends_at: '2020-01-01T00:00:00Z' }), 'expired'],
      [
        'for another menu',
        async () => {
          const another = await newMenu(t, team.owner, team.catalog.business);
          return createCode({ menu_uuids: [another.uuid] });
        },
        'does not apply to this menu',
      ],
      [
        'below its minimum',
        async () => createCode({ minimum_order_amount: '20.01' }),
        'at least 20.01',
      ],
      [
        'fully redeemed',
        async () => {
          const code = await createCode({ max_redemptions: 1 });
          await placeOrder(t, order(code.code, { amount: '18.00' }));
          return code;
        },
        'as many times as it may be',
      ],
    ])(
      'refuses a code that is %s with 422 on discount_code, storing nothing',
      async (_n, make, message) => {
        const code = await make();
        const before = await rowCounts(t);
        const redemptions = (
          await t.dataSource.query('SELECT count(*)::int AS n FROM discount_redemptions')
        )[0].n;
        const res = await placeOrderRequest(t, order(code.code, { amount: '18.00' }));
        expectError(res, 422, 'UNPROCESSABLE');
        expect(res.body.error.details[0]).toMatchObject({ field: 'discount_code' });
        expect(res.body.error.details[0].message).toContain(message);
        expect(await rowCounts(t)).toEqual(before);
        expect(
          (await t.dataSource.query('SELECT count(*)::int AS n FROM discount_redemptions'))[0].n,
        ).toBe(redemptions);
      },
    );

    it('limits redemptions per email address without regard to case', async () => {
      const code = await createCode({ max_redemptions_per_email: 1 });
      await placeOrder(
        t,
        order(code.code, { amount: '18.00', customer_email_address: 'Once@Example.test' }),
      );
      const res = await placeOrderRequest(
        t,
        order(code.code, { amount: '18.00', customer_email_address: 'once@example.TEST' }),
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].message).toContain('with this email address');
      await placeOrder(
        t,
        order(code.code, { amount: '18.00', customer_email_address: 'other@example.test' }),
      );
    });

    it('gives the redemption back when the order ends rejected or cancelled', async () => {
      const code = await createCode({ max_redemptions: 1 });
      const first = await placeOrder(t, order(code.code, { amount: '18.00' }));
      expectOk(await updateOrderRequest(t, team.owner.headers, first.uuid, { status: 'rejected' }));
      const second = await placeOrder(t, order(code.code, { amount: '18.00' }));
      expect(second.pricing.discount).toBe('2.00');
      expectOk(
        await t.http
          .post(`${t.orders}/order/${second.uuid}/cancel`)
          .set({ ...guestHeaders(t), 'x-order-token': second.order_token })
          .send({}),
      );
      const third = await placeOrder(t, order(code.code, { amount: '18.00' }));
      expect(third.pricing.discount_code).toBe(code.code);
      const read = expectOk(await t.http.get(path(business(), code.uuid)).set(team.owner.headers));
      expect(read.redemptions).toBe(1);
    });

    it('the quote checks the code but uses no redemption', async () => {
      const code = await createCode({ max_redemptions: 1 });
      const body = order(code.code);
      delete body.amount;
      for (let i = 0; i < 3; i++) {
        const data = expectOk(
          await t.http.post(`${t.orders}/order/quote`).set(guestHeaders(t)).send(body),
        );
        expect(data.problems).toEqual([]);
        expect(data.pricing).toMatchObject({
          discount: '2.00',
          total: '18.00',
          discount_code: code.code,
        });
      }
      const quoted = expectOk(
        await t.http.get(path(business(), code.uuid)).set(team.owner.headers),
      );
      expect(quoted.redemptions).toBe(0);
      const unknown = expectOk(
        await t.http
          .post(`${t.orders}/order/quote`)
          .set(guestHeaders(t))
          .send({ ...body, discount_code: 'NOPE-NOPE' }),
      );
      expect(unknown.problems).toEqual([expect.objectContaining({ field: 'discount_code' })]);
    });

    it('of 20 simultaneous orders for one remaining redemption, exactly one gets it', async () => {
      const code = await createCode({ max_redemptions: 2 });
      await placeOrder(t, order(code.code, { amount: '18.00' }));
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          placeOrderRequest(t, order(code.code, { amount: '18.00' })),
        ),
      );
      const placed = results.filter((res) => res.status === 201);
      const refused = results.filter((res) => res.status === 422);
      expect(placed).toHaveLength(1);
      expect(refused).toHaveLength(19);
      for (const res of refused) expect(res.body.error.details[0].field).toBe('discount_code');
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM orders WHERE discount_uuid = $1',
        [code.uuid],
      );
      expect(row.n).toBe(2);
      const read = expectOk(await t.http.get(path(business(), code.uuid)).set(team.owner.headers));
      expect(read.redemptions).toBe(2);
    });

    it('of 10 simultaneous orders by one guest of a once-per-email code, exactly one gets it', async () => {
      const code = await createCode({ max_redemptions_per_email: 1 });
      const results = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) =>
          placeOrderRequest(
            t,
            order(code.code, {
              amount: '18.00',
              customer_email_address: i % 2 ? 'Same@Guest.test' : 'same@guest.test',
            }),
          ),
        ),
        placeOrderRequest(
          t,
          order(code.code, { amount: '18.00', customer_email_address: 'another@guest.test' }),
        ),
      ]);
      const sameGuest = results.slice(0, 10);
      expect(sameGuest.filter((res) => res.status === 201)).toHaveLength(1);
      const refused = sameGuest.filter((res) => res.status === 422);
      expect(refused).toHaveLength(9);
      for (const res of refused) expect(res.body.error.details[0].field).toBe('discount_code');
      expect(results[10].status).toBe(201);
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM orders WHERE discount_uuid = $1',
        [code.uuid],
      );
      expect(row.n).toBe(2);
    });

    it('a code without limits takes every simultaneous order and counts each', async () => {
      const code = await createCode({});
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          placeOrderRequest(
            t,
            order(code.code, { amount: '18.00', customer_email_address: `guest${i % 3}@a.test` }),
          ),
        ),
      );
      expect(results.map((res) => res.status)).toEqual(Array(12).fill(201));
      const read = expectOk(await t.http.get(path(business(), code.uuid)).set(team.owner.headers));
      expect(read.redemptions).toBe(12);
    });
  });

  it('a business without codes sees nothing new', async () => {
    const catalog = await newCatalog(t, team.outsider);
    const placed = await placeOrder(t, orderBody(catalog));
    expect(placed.pricing.discount_code).toBeNull();
  });
});
