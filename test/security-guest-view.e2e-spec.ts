import { asGuest, CardPayments, startCardPayments } from './support/card-payments';
import { Catalog } from './support/entity';
import { expectOk } from './support/expect';
import { TestUser } from './support/factory';
import { cartLine, openStream, orderBody, placeOrder, updateOrderRequest } from './support/order';
import { TestApp } from './support/test-app';

const NOTE = 'owner-only: regular, tips badly';

/**
 * Every answer a guest gets through their order token is the guest's view:
 * never the owner's note, never the history entries of that note.
 */
describe("the guest's view is one mapping for every guest answer", () => {
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;
  let card: CardPayments;

  beforeAll(async () => {
    card = await startCardPayments({ env: { PAYSTACK_TIMEOUT_MS: '1000' } });
    ({ t, owner, catalog } = card);
  });
  afterAll(() => card?.close());

  function expectGuestView(answer: any) {
    expect(answer).not.toHaveProperty('owner_note');
    expect(answer.history.map((entry: { field: string }) => entry.field)).not.toContain(
      'owner_note',
    );
    expect(JSON.stringify(answer)).not.toContain(NOTE);
  }

  async function notedCardOrder() {
    const order = await placeOrder(
      t,
      orderBody(catalog, {
        payment_processor: 'paystack',
        cart_items: [cartLine(catalog.items[0], 1)],
      }),
    );
    expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { owner_note: NOTE }));
    return order;
  }

  it('read, verify, checkout retry and cancel leave out the note and its history', async () => {
    const order = await notedCardOrder();
    expectGuestView(
      expectOk(await t.http.get(`${t.orders}/order/${order.uuid}`).set(asGuest(t, order))),
    );
    expectGuestView(
      expectOk(
        await t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(asGuest(t, order)),
      ),
    );
    expectGuestView(
      expectOk(await t.http.post(`${t.orders}/order/${order.uuid}/payment`).set(asGuest(t, order))),
    );
    expectGuestView(
      expectOk(
        await t.http.post(`${t.orders}/order/${order.uuid}/cancel`).set(asGuest(t, order)).send({}),
      ),
    );
  });

  it("the owner's verify with their Bearer token still answers the whole order", async () => {
    const order = await notedCardOrder();
    const answer = expectOk(
      await t.http.post(`${t.orders}/order/${order.uuid}/payment/verify`).set(owner.headers),
    );
    expect(answer.owner_note).toBe(NOTE);
    expect(answer.history.map((entry: { field: string }) => entry.field)).toContain('owner_note');
  });

  it("the guest's stream carries no note", async () => {
    const order = await placeOrder(t, orderBody(catalog));
    const stream = await openStream(t.baseUrl, `${t.orders}/order/${order.uuid}/stream`, {
      api_key: t.config.apiKeys[0],
      order_token: order.order_token,
    });
    try {
      expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { owner_note: NOTE }));
      expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'accepted' }));
      await stream.waitFor((event) => event.data?.status === 'accepted');
      expect(stream.events.length).toBeGreaterThan(0);
      for (const event of stream.events) {
        expect(event.data).not.toHaveProperty('owner_note');
        expect(JSON.stringify(event.data)).not.toContain(NOTE);
      }
    } finally {
      stream.close();
    }
  });
});
