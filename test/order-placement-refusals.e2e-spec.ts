import { Clock } from '../src/common/clock';
import { expectError, expectOk } from './support/expect';
import { entityPath, newCatalog, newItem } from './support/entity';
import { createUser, TestUser } from './support/factory';
import {
  cartLine,
  guestHeaders,
  orderBody,
  placeOrder,
  placeOrderRequest,
  randomIp,
  rowCounts,
} from './support/order';
import { startTestApp, TestApp } from './support/test-app';

// R42: payment method offered.
// R43: a public menu.
// R44: cart lines.
// R45: customer fields.
/** Every refusal of a guest order: the status, the code, and nothing stored. */
describe('guest order placement refusals', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
  });
  afterAll(() => t?.close());

  /** Asserts the refusal and that no order, line, event, notification, outbox row or key was stored. */
  async function expectRefused(
    send: () => PromiseLike<import('supertest').Response>,
    status: number,
    code: string,
  ) {
    const before = await rowCounts(t);
    const res = await send();
    expectError(res, status, code);
    expect(await rowCounts(t)).toEqual(before);
    return res;
  }
  describe('refusals (each stores nothing)', () => {
    let catalog: Awaited<ReturnType<typeof newCatalog>>;

    beforeAll(async () => {
      catalog = await newCatalog(t, owner, {
        items: [
          {
            title_name: 'Wings',
            extra_data: {
              unit_price_amount: '5.00',
              minimum_quantity_per_order: 2,
              maximum_quantity_per_order: 4,
            },
          },
          {
            title_name: 'Courier',
            extra_data: { unit_price_amount: '2.00', category: 'Delivery' },
          },
          {
            title_name: 'Pickup runner',
            extra_data: { unit_price_amount: '1.00', category: 'Delivery' },
          },
        ],
      });
    });

    function body(overrides: Record<string, unknown> = {}) {
      return orderBody(catalog, {
        amount: 10,
        cart_items: [cartLine(catalog.items[0], 2)],
        ...overrides,
      });
    }

    it('places the reference body (so each refusal below is about one field)', async () => {
      await placeOrder(t, body());
    });

    describe('R42: payment method', () => {
      it('refuses a value outside paystack, bank_transfer and cash with 400', async () => {
        for (const payment_processor of ['card', 'stripe', 'CASH', '', 5]) {
          const res = await expectRefused(
            () => placeOrderRequest(t, body({ payment_processor })),
            400,
            'VALIDATION_FAILED',
          );
          expect(res.body.error.details).toEqual([
            expect.objectContaining({ field: 'payment_processor' }),
          ]);
        }
      });

      it('refuses a method the menu does not offer with 422', async () => {
        for (const payment_processor of ['paystack', 'bank_transfer']) {
          const res = await expectRefused(
            () => placeOrderRequest(t, body({ payment_processor })),
            422,
            'UNPROCESSABLE',
          );
          expect(res.body.error.details).toEqual([
            expect.objectContaining({ field: 'payment_processor', offered: ['cash'] }),
          ]);
        }
      });
    });

    describe('R43: a public menu of a public business', () => {
      it('refuses an unknown menu with 404', async () => {
        await expectRefused(
          () => placeOrderRequest(t, body({ menu_uuid: '00000000-0000-4000-8000-000000000000' })),
          404,
          'NOT_FOUND',
        );
      });

      it('refuses a malformed menu id with 400', async () => {
        await expectRefused(
          () => placeOrderRequest(t, body({ menu_uuid: 'menu-1' })),
          400,
          'VALIDATION_FAILED',
        );
      });

      it('refuses a disabled or trashed menu, and a menu of a disabled business, with 404', async () => {
        const hidden = await newCatalog(t, owner);
        const hiddenBody = orderBody(hidden);
        await placeOrder(t, hiddenBody);

        const menuPath = entityPath(t, 'business_menu', hidden.menu.uuid);
        expectOk(await t.http.put(menuPath).set(owner.headers).send({ status: 'disabled' }));
        await expectRefused(() => placeOrderRequest(t, hiddenBody), 404, 'NOT_FOUND');
        expectOk(await t.http.put(menuPath).set(owner.headers).send({ status: 'enabled' }));
        await placeOrder(t, hiddenBody);

        const businessPath = entityPath(t, 'business', hidden.business.uuid);
        expectOk(await t.http.put(businessPath).set(owner.headers).send({ status: 'disabled' }));
        await expectRefused(() => placeOrderRequest(t, hiddenBody), 404, 'NOT_FOUND');
        expectOk(await t.http.put(businessPath).set(owner.headers).send({ status: 'enabled' }));

        expectOk(
          await t.http
            .post(entityPath(t, 'business_menu', 'trash', hidden.menu.uuid))
            .set(owner.headers),
        );
        await expectRefused(() => placeOrderRequest(t, hiddenBody), 404, 'NOT_FOUND');
      });
    });

    describe('R44: the cart', () => {
      it('refuses an empty cart and one of more than 100 lines with 400', async () => {
        await expectRefused(
          () => placeOrderRequest(t, body({ cart_items: [] })),
          400,
          'VALIDATION_FAILED',
        );
        const many = Array.from({ length: 101 }, () => cartLine(catalog.items[0], 2));
        const res = await expectRefused(
          () => placeOrderRequest(t, body({ cart_items: many })),
          400,
          'VALIDATION_FAILED',
        );
        expect(res.body.error.details[0].field).toBe('cart_items');
      });

      it('refuses an item of another menu, naming the line, with 422', async () => {
        const other = await newCatalog(t, owner);
        const res = await expectRefused(
          () =>
            placeOrderRequest(
              t,
              body({
                amount: 20,
                cart_items: [cartLine(catalog.items[0], 2), cartLine(other.items[0], 1)],
              }),
            ),
          422,
          'UNPROCESSABLE',
        );
        expect(res.body.error.details).toEqual([
          expect.objectContaining({ field: 'cart_items.1.uuid', item_uuid: other.items[0].uuid }),
        ]);
        expect(res.body.message).toMatch(/^Line 2/);
      });

      it('refuses an unknown, disabled or trashed item with 422', async () => {
        const extra = await newItem(t, owner, catalog.menu, {
          extra_data: { unit_price_amount: '1.00' },
        });
        const itemPath = entityPath(t, 'business_menu_item', extra.uuid);
        const withExtra = body({
          amount: 11,
          cart_items: [cartLine(catalog.items[0], 2), cartLine(extra)],
        });
        await placeOrder(t, withExtra);

        expectOk(await t.http.put(itemPath).set(owner.headers).send({ status: 'disabled' }));
        await expectRefused(() => placeOrderRequest(t, withExtra), 422, 'UNPROCESSABLE');
        expectOk(await t.http.put(itemPath).set(owner.headers).send({ status: 'enabled' }));
        expectOk(
          await t.http
            .post(entityPath(t, 'business_menu_item', 'trash', extra.uuid))
            .set(owner.headers),
        );
        await expectRefused(() => placeOrderRequest(t, withExtra), 422, 'UNPROCESSABLE');
        const unknown = body({
          cart_items: [{ uuid: '00000000-0000-4000-8000-000000000001', quantity: 1 }],
        });
        const res = await expectRefused(() => placeOrderRequest(t, unknown), 422, 'UNPROCESSABLE');
        expect(res.body.error.details[0].field).toBe('cart_items.0.uuid');
      });

      it('refuses a quantity outside the item range, naming the line and the range, with 422', async () => {
        for (const quantity of [1, 5]) {
          const res = await expectRefused(
            () =>
              placeOrderRequest(
                t,
                body({ amount: quantity * 5, cart_items: [cartLine(catalog.items[0], quantity)] }),
              ),
            422,
            'UNPROCESSABLE',
          );
          expect(res.body.error.details).toEqual([
            expect.objectContaining({ field: 'cart_items.0.quantity', minimum: 2, maximum: 4 }),
          ]);
          expect(res.body.message).toContain('2–4');
        }
      });

      it('refuses a quantity that is not a positive whole number with 400', async () => {
        for (const quantity of [2.5, 0, -1, 'two', null]) {
          const res = await expectRefused(
            () =>
              placeOrderRequest(
                t,
                body({ cart_items: [{ uuid: catalog.items[0].uuid, quantity }] }),
              ),
            400,
            'VALIDATION_FAILED',
          );
          expect(res.body.error.details[0].field).toBe('cart_items.0.quantity');
        }
      });

      it('refuses an item note over 500 characters with 400', async () => {
        const res = await expectRefused(
          () =>
            placeOrderRequest(
              t,
              body({ cart_items: [cartLine(catalog.items[0], 2, 'x'.repeat(501))] }),
            ),
          400,
          'VALIDATION_FAILED',
        );
        expect(res.body.error.details[0].field).toBe('cart_items.0.item_note');
      });

      it('refuses a second delivery line with 422 and accepts one', async () => {
        await placeOrder(
          t,
          body({
            amount: 12,
            cart_items: [cartLine(catalog.items[0], 2), cartLine(catalog.items[1])],
          }),
        );
        const res = await expectRefused(
          () =>
            placeOrderRequest(
              t,
              body({
                amount: 13,
                cart_items: [
                  cartLine(catalog.items[1]),
                  cartLine(catalog.items[0], 2),
                  cartLine(catalog.items[2]),
                ],
              }),
            ),
          422,
          'UNPROCESSABLE',
        );
        expect(res.body.error.details).toEqual([
          expect.objectContaining({ field: 'cart_items.2.uuid' }),
        ]);
      });
    });

    describe('R19: the amount', () => {
      it('refuses a missing or non-numeric amount with 400', async () => {
        for (const amount of [undefined, 'ten', -10, null, {}]) {
          const res = await expectRefused(
            () => placeOrderRequest(t, body({ amount })),
            400,
            'VALIDATION_FAILED',
          );
          expect(res.body.error.details[0].field).toBe('amount');
        }
      });
    });

    describe('R45: customer fields', () => {
      it.each([
        ['customer_email_address', 'not-an-email'],
        ['customer_email_address', undefined],
        ['customer_phone_number', '1'.repeat(33)],
        ['general_note', 'n'.repeat(1001)],
        ['customer_requested_order_email_copy', 'yes'],
      ])('refuses %s = %p with 400', async (field, value) => {
        const res = await expectRefused(
          () => placeOrderRequest(t, body({ [field]: value })),
          400,
          'VALIDATION_FAILED',
        );
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      });

      it('accepts the limits themselves and stores the on-premises location as sent', async () => {
        const order = await placeOrder(
          t,
          body({
            customer_phone_number: '1'.repeat(32),
            general_note: 'n'.repeat(1000),
            onpremise_data: { customer_onpremise_location: '_' },
          }),
        );
        expect(order.general_note).toHaveLength(1000);
        expect(order.onpremise_data).toEqual({ customer_onpremise_location: '_' });
      });
    });

    describe('R20: Idempotency-Key', () => {
      it('refuses an empty, over-long or non-ASCII key with 400', async () => {
        for (const key of ['k'.repeat(129), 'clé-unique', 'has space']) {
          await expectRefused(
            () => placeOrderRequest(t, body(), { ...guestHeaders(t), 'idempotency-key': key }),
            400,
            'VALIDATION_FAILED',
          );
        }
      });

      it('refuses the same key with a different body with 409', async () => {
        const key = `key-${randomIp()}`;
        const headers = { ...guestHeaders(t), 'idempotency-key': key };
        await placeOrder(t, body(), headers);
        const res = await expectRefused(
          () => placeOrderRequest(t, body({ general_note: 'changed my mind' }), headers),
          409,
          'CONFLICT',
        );
        expect(res.body.error.details[0].field).toBe('Idempotency-Key');
      });

      // The key's claim and the menu's read are sent together: a refusal
      // after the claim rolls it back, and a replay does not use the read.
      it('keeps no claim of a refused placement: the key then places the order', async () => {
        const headers = { ...guestHeaders(t), 'idempotency-key': `key-${randomIp()}` };
        await expectRefused(
          () =>
            placeOrderRequest(
              t,
              body({ menu_uuid: '00000000-0000-4000-8000-000000000000' }),
              headers,
            ),
          404,
          'NOT_FOUND',
        );
        const placed = await placeOrderRequest(t, body(), headers);
        expect(placed.status).toBe(201);
        expect(placed.headers['idempotent-replayed']).toBeUndefined();
      });

      it('replays an order whose menu has closed since, and a changed body is still 409', async () => {
        const closing = await newCatalog(t, owner);
        const closingBody = orderBody(closing);
        const headers = { ...guestHeaders(t), 'idempotency-key': `key-${randomIp()}` };
        const first = await placeOrder(t, closingBody, headers);
        const menuPath = entityPath(t, 'business_menu', closing.menu.uuid);
        expectOk(await t.http.put(menuPath).set(owner.headers).send({ status: 'disabled' }));
        const before = await rowCounts(t);
        const replay = await placeOrderRequest(t, closingBody, headers);
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(replay.body.data.uuid).toBe(first.uuid);
        await expectRefused(
          () => placeOrderRequest(t, { ...closingBody, general_note: 'another' }, headers),
          409,
          'CONFLICT',
        );
        expect(await rowCounts(t)).toEqual(before);
      });
    });

    describe('R46: rate limit per IP', () => {
      it('refuses the 31st order of a minute from one IP with 429 and Retry-After', async () => {
        const clock = t.app.get(Clock);
        clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000));
        try {
          const ip = randomIp();
          const missing = body({ menu_uuid: '00000000-0000-4000-8000-000000000000' });
          // Refused orders count too: the limit is on attempts.
          for (let i = 0; i < t.config.rateLimitOrderPerMinute; i++) {
            expectError(await placeOrderRequest(t, missing, guestHeaders(t, ip)), 404, 'NOT_FOUND');
          }
          const res = await expectRefused(
            () => placeOrderRequest(t, body(), guestHeaders(t, ip)),
            429,
            'RATE_LIMITED',
          );
          expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
          // Another client is not affected.
          await placeOrder(t, body(), guestHeaders(t, randomIp()));
          // The next window lets the first client in again.
          clock.advance(60_000);
          await placeOrder(t, body(), guestHeaders(t, ip));
        } finally {
          clock.reset();
        }
      });
    });
  });
});
