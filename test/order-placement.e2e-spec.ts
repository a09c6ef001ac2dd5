import { Clock } from '../src/common/clock';
import { IdempotencyService } from '../src/order/idempotency.service';
import { entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { readMails } from './support/mail';
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

// R19: the server computes the total.
// R20: idempotent placement.
// R21: one transaction.
// R22: the server notifies the owner.
// R42: payment method offered.
// R43: a public menu.
// R44: cart lines.
// R45: customer fields.
describe('guest order placement', () => {
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

  describe('a placed order', () => {
    it('answers 201 with the order and stores it with its lines, history and notification', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [
          { title_name: 'Jollof rice', extra_data: { unit_price_amount: '12.50' } },
          { title_name: 'Chapman', extra_data: { unit_price_amount: '3.25', category: 'Drinks' } },
        ],
      });
      const before = await rowCounts(t);
      const body = orderBody(catalog, {
        amount: 28.25,
        customer_email_address: 'ada@example.test',
        general_note: 'Extra napkins',
        onpremise_data: {
          customer_onpremise_location_type: 'Table',
          customer_onpremise_location_number: '12',
          customer_onpremise_location: 'Table_12',
        },
        cart_items: [cartLine(catalog.items[0], 2, 'no pepper'), cartLine(catalog.items[1], 1)],
        created_by: 'someone-else',
        uuid: '',
      });
      const order = await placeOrder(t, body);
      expect(order).toMatchObject({
        status: 'pending',
        payment_status: 'unpaid',
        menu_uuid: catalog.menu.uuid,
        business_uuid: catalog.business.uuid,
        amount: '28.25',
        currency: 'NGN',
        payment_processor: 'cash',
        customer_email_address: 'ada@example.test',
        customer_phone_number: '+2348000000000',
        customer_requested_order_email_copy: false,
        general_note: 'Extra napkins',
        onpremise_data: {
          customer_onpremise_location_type: 'Table',
          customer_onpremise_location_number: '12',
          customer_onpremise_location: 'Table_12',
        },
        items: [
          {
            item_uuid: catalog.items[0].uuid,
            title_name: 'Jollof rice',
            unit_price_amount: '12.50',
            quantity: 2,
            line_total: '25.00',
            item_note: 'no pepper',
          },
          {
            item_uuid: catalog.items[1].uuid,
            title_name: 'Chapman',
            unit_price_amount: '3.25',
            quantity: 1,
            line_total: '3.25',
            item_note: null,
          },
        ],
        history: [{ field: 'status', from: null, to: 'pending', by: null, actor: 'guest' }],
      });
      expect(order.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(order.order_reference).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(new Date(order.created_at).toString()).not.toBe('Invalid Date');

      const after = await rowCounts(t);
      expect(after.orders - before.orders).toBe(1);
      expect(after.order_lines - before.order_lines).toBe(2);
      expect(after.order_events - before.order_events).toBe(1);
      expect(after.notifications - before.notifications).toBe(1);
      // The owner's alert only: no copy was asked for.
      expect(after.outbox - before.outbox).toBe(1);

      const [stored] = await t.dataSource.query(
        'SELECT owner_uuid, amount::text AS amount FROM orders WHERE uuid = $1',
        [order.uuid],
      );
      expect(stored).toEqual({ owner_uuid: owner.uuid, amount: '28.25' });
      const notifications = await t.dataSource.query(
        'SELECT kind, title, data FROM notifications WHERE user_uuid = $1 AND data->>$2 = $3',
        [owner.uuid, 'order_uuid', order.uuid],
      );
      expect(notifications).toEqual([
        expect.objectContaining({
          kind: 'order.created',
          title: `New order ${order.order_reference}`,
        }),
      ]);
      const [alert] = (await readMails(t, owner.email)).filter((mail) =>
        mail.subject.includes(order.order_reference),
      );
      expect(alert.subject).toContain('New order');
      expect(alert.text).toContain('Total: 28.25 NGN');
      expect(alert.text).toContain('ada@example.test');
    });

    it('mails the customer a copy with lines, total, reference and the business contact when asked', async () => {
      const catalog = await newCatalog(t, owner, {
        business: {
          title_name: 'Mama Put Kitchen',
          extra_data: { contact_email: 'kitchen@example.test', business_address: '5 Broad St' },
        },
        items: [{ title_name: 'Suya', extra_data: { unit_price_amount: '7.00' } }],
      });
      const email = `copy-${Date.now()}@example.test`;
      const order = await placeOrder(
        t,
        orderBody(catalog, {
          amount: 14,
          customer_email_address: email,
          customer_requested_order_email_copy: true,
          cart_items: [cartLine(catalog.items[0], 2)],
        }),
      );
      const mails = await readMails(t, email);
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toBe(`Your order ${order.order_reference} at Mama Put Kitchen`);
      for (const part of [
        order.order_reference,
        '2 × Suya @ 7.00 NGN = 14.00 NGN',
        'Total: 14.00 NGN',
        'kitchen@example.test',
        '5 Broad St',
      ]) {
        expect(mails[0].text).toContain(part);
      }
      expect(
        (await readMails(t, owner.email)).some((m) => m.subject.includes(order.order_reference)),
      ).toBe(true);
    });

    it('accepts a card payment the menu offers, in the object shape the owner client stores', async () => {
      const catalog = await newCatalog(t, owner, {
        menu: {
          extra_data: {
            menu_checkout_payments_providers: {
              paystack: { title: 'Card', description: '', fee: '0', fee_max_amount: '0' },
            },
          },
        },
      });
      const order = await placeOrder(t, orderBody(catalog, { payment_processor: 'paystack' }));
      expect(order.payment_processor).toBe('paystack');
    });

    it('defaults the payment method to cash and accepts quantities sent as text', async () => {
      const catalog = await newCatalog(t, owner);
      const body = orderBody(catalog, {
        amount: '20.00',
        cart_items: [{ uuid: catalog.items[0].uuid, quantity: '2' }],
      });
      delete body.payment_processor;
      const order = await placeOrder(t, body);
      expect(order.payment_processor).toBe('cash');
      expect(order.items[0].quantity).toBe(2);
      expect(order.amount).toBe('20.00');
    });

    it('gives every order its own short reference', async () => {
      const catalog = await newCatalog(t, owner);
      const references = new Set<string>();
      for (let i = 0; i < 5; i++) {
        references.add((await placeOrder(t, orderBody(catalog))).order_reference);
      }
      expect(references.size).toBe(5);
    });

    it('is acknowledged by the no-op notify step for an existing order only', async () => {
      const catalog = await newCatalog(t, owner);
      const order = await placeOrder(t, orderBody(catalog));
      const before = await rowCounts(t);
      const res = await t.http.post(`${t.orders}/order/${order.uuid}/notify`).set(guestHeaders(t));
      expect(expectOk(res, 200)).toEqual({
        uuid: order.uuid,
        order_reference: order.order_reference,
      });
      expect(await rowCounts(t)).toEqual(before);
      await expectRefused(
        () =>
          t.http
            .post(`${t.orders}/order/00000000-0000-4000-8000-000000000000/notify`)
            .set(guestHeaders(t)),
        404,
        'NOT_FOUND',
      );
      await expectRefused(
        () => t.http.post(`${t.orders}/order/not-an-id/notify`).set(guestHeaders(t)),
        404,
        'NOT_FOUND',
      );
    });

    it('needs the API key but no login', async () => {
      const catalog = await newCatalog(t, owner);
      await expectRefused(
        () => t.http.post(`${t.orders}/order`).send(orderBody(catalog)),
        401,
        'API_KEY_INVALID',
      );
    });
  });

  describe('exact totals (the server computes the total)', () => {
    it('adds three lines of 0.10 to exactly 0.30', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [
          { extra_data: { unit_price_amount: '0.10' } },
          { extra_data: { unit_price_amount: '0.10' } },
          { extra_data: { unit_price_amount: '0.10' } },
        ],
      });
      // 0.1 + 0.2 as a binary float, as a JavaScript client would send it.
      const order = await placeOrder(t, orderBody(catalog, { amount: 0.1 + 0.2 }));
      expect(order.amount).toBe('0.30');
      const [row] = await t.dataSource.query(
        'SELECT amount::text AS amount FROM orders WHERE uuid = $1',
        [order.uuid],
      );
      expect(row.amount).toBe('0.30');
    });

    it('multiplies 19.99 × 3 to exactly 59.97', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [{ extra_data: { unit_price_amount: '19.99' } }],
      });
      const order = await placeOrder(
        t,
        orderBody(catalog, { amount: 59.97, cart_items: [cartLine(catalog.items[0], 3)] }),
      );
      expect(order.amount).toBe('59.97');
      expect(order.items[0].line_total).toBe('59.97');
    });

    it('refuses an amount 0.01 off with the computed total in the details, and stores nothing', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [{ extra_data: { unit_price_amount: '19.99' } }],
      });
      for (const amount of [59.96, 59.98, '59.98']) {
        const res = await expectRefused(
          () =>
            placeOrderRequest(
              t,
              orderBody(catalog, { amount, cart_items: [cartLine(catalog.items[0], 3)] }),
            ),
          422,
          'UNPROCESSABLE',
        );
        expect(res.body.error.details).toEqual([
          expect.objectContaining({ field: 'amount', computed_total: '59.97' }),
        ]);
      }
    });

    it('accepts an amount within 0.005 and stores the computed total, not the sent one', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [{ extra_data: { unit_price_amount: '19.99' } }],
      });
      const order = await placeOrder(
        t,
        orderBody(catalog, { amount: 59.974, cart_items: [cartLine(catalog.items[0], 3)] }),
      );
      expect(order.amount).toBe('59.97');
      const [row] = await t.dataSource.query(
        'SELECT amount::text AS amount FROM orders WHERE uuid = $1',
        [order.uuid],
      );
      expect(row.amount).toBe('59.97');
    });

    it('keeps the lines of an order unchanged when the item is edited afterwards', async () => {
      const catalog = await newCatalog(t, owner, {
        items: [{ title_name: 'Pepper soup', extra_data: { unit_price_amount: '8.00' } }],
      });
      const order = await placeOrder(
        t,
        orderBody(catalog, { amount: 16, cart_items: [cartLine(catalog.items[0], 2)] }),
      );
      const item = catalog.items[0];
      const edited = await t.http
        .put(entityPath(t, 'business_menu_item', item.uuid))
        .set(owner.headers)
        .send({
          title_name: 'Goat pepper soup',
          extra_data: { ...item.extra_data, unit_price_amount: '11.00' },
        });
      expect(expectOk(edited).extra_data.unit_price_amount).toBe('11.00');

      const res = await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers);
      expect(expectOk(res).items).toEqual([
        expect.objectContaining({
          title_name: 'Pepper soup',
          unit_price_amount: '8.00',
          quantity: 2,
          line_total: '16.00',
        }),
      ]);
      expect(expectOk(res).amount).toBe('16.00');
      // A new order uses the new price.
      const next = await placeOrder(
        t,
        orderBody(catalog, { amount: 11, cart_items: [cartLine(item, 1)] }),
      );
      expect(next.items[0]).toMatchObject({
        title_name: 'Goat pepper soup',
        unit_price_amount: '11.00',
      });
    });
  });

  describe('idempotency (Idempotency-Key)', () => {
    let catalog: Awaited<ReturnType<typeof newCatalog>>;

    beforeAll(async () => {
      catalog = await newCatalog(t, owner);
    });

    it('answers a repeated request with the first answer and Idempotent-Replayed: true', async () => {
      const headers = { ...guestHeaders(t), 'idempotency-key': `replay-${randomIp()}` };
      const body = orderBody(catalog, { customer_requested_order_email_copy: true });
      const first = await placeOrderRequest(t, body, headers);
      const order = expectOk(first, 201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();

      const before = await rowCounts(t);
      // Key order and ignored fields do not make a different body.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await placeOrderRequest(t, { ...reordered, created_by: 'x' }, headers);
      expect(expectOk(again, 201)).toEqual(order);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await rowCounts(t)).toEqual(before);
    });

    it('makes one order of 20 parallel requests with one key; the others replay it', async () => {
      const headers = { ...guestHeaders(t), 'idempotency-key': `parallel-${randomIp()}` };
      const body = orderBody(catalog);
      const before = await rowCounts(t);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => placeOrderRequest(t, body, headers)),
      );
      for (const res of answers) expect(res.status).toBe(201);
      const uuids = new Set(answers.map((res) => res.body.data.uuid));
      expect(uuids.size).toBe(1);
      expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(
        19,
      );
      const after = await rowCounts(t);
      expect(after.orders - before.orders).toBe(1);
      expect(after.notifications - before.notifications).toBe(1);
      expect(after.idempotency_keys - before.idempotency_keys).toBe(1);
    });

    it('treats a key as new after 24 hours', async () => {
      const clock = t.app.get(Clock);
      const headers = { ...guestHeaders(t), 'idempotency-key': `expiry-${randomIp()}` };
      try {
        const first = await placeOrder(t, orderBody(catalog), headers);
        clock.advance(24 * 60 * 60 * 1000 + 1000);
        const later = await placeOrderRequest(
          t,
          orderBody(catalog, { general_note: 'next day' }),
          headers,
        );
        expect(expectOk(later, 201).uuid).not.toBe(first.uuid);
        expect(later.headers['idempotent-replayed']).toBeUndefined();

        // Keys past the window are purged; the taken-over one is fresh and stays.
        const stale = await placeOrder(t, orderBody(catalog), {
          ...guestHeaders(t),
          'idempotency-key': `stale-${randomIp()}`,
        });
        expect(stale.uuid).toBeDefined();
        clock.advance(24 * 60 * 60 * 1000 + 1000);
        const keys = async () =>
          (await t.dataSource.query('SELECT key FROM idempotency_keys')).map(
            (row: { key: string }) => row.key,
          );
        const before = await keys();
        expect(before).toEqual(expect.arrayContaining([headers['idempotency-key']]));
        const purged = await t.app.get(IdempotencyService).purgeExpired();
        expect(purged).toBe(before.length);
        expect(await keys()).toEqual([]);
      } finally {
        clock.reset();
      }
    });

    it('does not keep the key of a refused order, so a corrected retry goes through', async () => {
      const headers = { ...guestHeaders(t), 'idempotency-key': `refused-${randomIp()}` };
      await expectRefused(
        () => placeOrderRequest(t, orderBody(catalog, { amount: 99 }), headers),
        422,
        'UNPROCESSABLE',
      );
      const res = await placeOrderRequest(t, orderBody(catalog), headers);
      expectOk(res, 201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe('one transaction: all of the order or none', () => {
    it('stores no order when the outbox insert fails', async () => {
      const catalog = await newCatalog(t, owner);
      await t.dataSource.query(`
        CREATE FUNCTION test_refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'outbox refused by the test'; END $$`);
      await t.dataSource.query(
        'CREATE TRIGGER test_refuse_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION test_refuse_outbox()',
      );
      const headers = { ...guestHeaders(t), 'idempotency-key': `atomic-${randomIp()}` };
      const body = orderBody(catalog, { customer_email_address: 'atomic@example.test' });
      try {
        const res = await expectRefused(() => placeOrderRequest(t, body, headers), 500, 'INTERNAL');
        expect(JSON.stringify(res.body)).not.toContain('outbox refused');
        const orders = await t.dataSource.query('SELECT 1 FROM orders WHERE menu_uuid = $1', [
          catalog.menu.uuid,
        ]);
        expect(orders).toEqual([]);
      } finally {
        await t.dataSource.query('DROP TRIGGER test_refuse_outbox ON outbox');
        await t.dataSource.query('DROP FUNCTION test_refuse_outbox()');
      }
      // The key was rolled back with the rest: the retry places the order.
      const retry = await placeOrderRequest(t, body, headers);
      expectOk(retry, 201);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  it('documents the placement path and its error answers in OpenAPI', async () => {
    const doc = expectOkDoc(await t.http.get('/docs/openapi.json'));
    const operation = doc.paths[`${t.orders}/order`].post;
    expect(operation.operationId).toBe('placeOrder');
    for (const status of ['201', '400', '401', '404', '409', '422', '429']) {
      expect(operation.responses).toHaveProperty(status);
    }
    expect(operation.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]),
    );
    expect(doc.paths[`${t.orders}/admin/order/update/{order_id}`].put.operationId).toBe(
      'updateOrder',
    );
  });
});

function expectOkDoc(res: import('supertest').Response): any {
  expect(res.status).toBe(200);
  return res.body;
}
