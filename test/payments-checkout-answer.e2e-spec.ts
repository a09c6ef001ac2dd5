import { Client } from 'pg';
import { EventBus } from '../src/database/event-bus';
import { PaymentRepository } from '../src/payment/payment.repository';
import { CardPayments, startCardPayments } from './support/card-payments';
import { expectOk } from './support/expect';
import { guestHeaders, placeOrder, updateOrderRequest } from './support/order';
import { cardBody, cardCatalogOptions } from './support/paystack-orders';

// R31: paystack; the placement's answer once the checkout opened.
describe('payments through Paystack: the card order’s answer', () => {
  // Paystack's answer waits for the owner's acceptance here: a timeout
  // long enough for it whatever the machine's load.
  let card: CardPayments;
  beforeAll(async () => {
    card = await startCardPayments({
      env: { PAYSTACK_TIMEOUT_MS: '20000', PAYMENT_CALLBACK_ORIGINS: 'https://shop.example' },
      catalog: cardCatalogOptions(),
    });
  });
  afterAll(() => card?.close());

  it('is the order as stored, the checkout’s outcome and the order’s write sent together with the COMMIT', async () => {
    const { t, fake, catalog } = card;
    // What the service sends from Paystack's call on is the checkout's
    // transaction: each statement on the order or its payments, when it was
    // issued and when it was answered.
    const seen: string[] = [];
    const original = Client.prototype.query;
    let spy: jest.SpyInstance | undefined;
    fake.onInitialized = async () => {
      spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
        this: Client,
        ...args: unknown[]
      ) {
        const query = args[0] as { text?: string; callback?: (...a: unknown[]) => void };
        // A statement whose plan is kept begins with its mark.
        const table =
          /^(?:\/\* plan kept \*\/ )?(?:update "(payments|orders)"|with .*update "(payments|orders)")/s.exec(
            query?.text ?? '',
          );
        const name = table?.[1] ?? table?.[2];
        if (name && query.callback) {
          seen.push(`${name} sent`);
          const answered = query.callback;
          query.callback = (...result: unknown[]) => {
            seen.push(`${name} answered`);
            answered(...result);
          };
        }
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      } as never);
    };
    let placed: Record<string, unknown> & { order_token: string; uuid: string };
    try {
      placed = await placeOrder(t, cardBody(catalog));
    } finally {
      fake.onInitialized = null;
      spy?.mockRestore();
    }
    const { order_token: token, owner_note: _note, ...answer } = placed;
    // Both sent before either answered: one write, one round trip.
    expect(seen).toEqual(['payments sent', 'orders sent', 'payments answered', 'orders answered']);
    expect(answer.payment).toMatchObject({ status: 'pending', error: null });
    const read = await t.http
      .get(`${t.orders}/order/${answer.uuid}`)
      .set({ ...guestHeaders(t), 'x-order-token': token });
    expect(answer).toEqual(expectOk(read, 200));
  });

  it('runs a transaction again, the change sent first, when the order must be read behind a held change', async () => {
    const { t, catalog } = card;
    const order = await placeOrder(t, cardBody(catalog));
    const [payment] = await t.app
      .get(PaymentRepository)
      .ofOrders(t.dataSource.manager, [order.uuid]);
    const runs: boolean[] = [];
    // Not followed as placed, the order is read: not while the change that takes its lock is held.
    await t.app.get(EventBus).transaction(async (tx) => {
      const held = runs.length === 0;
      runs.push(held);
      await tx.emit('payment.changed', {
        orderUuid: order.uuid,
        shareUuid: null,
        payment,
        actor: 'system',
        userUuid: null,
        notifyOwner: false,
        last: true,
        ...(held ? { held } : {}),
      });
    });
    expect(runs).toEqual([true, false]);
  });

  it('is the order as it stands when the owner accepted it while the checkout opened', async () => {
    const { t, fake, owner, catalog } = card;
    fake.onInitialized = async (reference) => {
      const [row] = await t.dataSource.query(
        `SELECT order_uuid FROM payments WHERE reference = $1`,
        [reference],
      );
      expectOk(await updateOrderRequest(t, owner.headers, row.order_uuid, { status: 'accepted' }));
    };
    const {
      order_token: token,
      owner_note: _note,
      ...answered
    } = await placeOrder(t, cardBody(catalog));
    fake.onInitialized = null;
    expect(answered.status).toBe('accepted');
    expect(answered.history.map((entry: { field: string }) => entry.field)).toEqual([
      'status',
      'status',
      'payment',
    ]);
    expect(answered.payment).toMatchObject({ status: 'pending', error: null });
    const read = await t.http
      .get(`${t.orders}/order/${answered.uuid}`)
      .set({ ...guestHeaders(t), 'x-order-token': token });
    expect(answered).toEqual(expectOk(read, 200));
  });
});
