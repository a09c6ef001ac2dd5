import { Clock } from '../src/common/clock';
import { AcceptanceDeadlineWorker } from '../src/pace';
import { asGuest, CardPayments, chargeSuccess, startCardPayments } from './support/card-payments';
import { createTestDatabase } from './support/database';
import { Catalog, entityPath, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser } from './support/factory';
import { drainOutbox, readMails } from './support/mail';
import { cartLine, orderBody, placeOrder, updateOrderRequest } from './support/order';
import { serverOnly } from './support/server-only';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';
import { OutboxWorker } from '../src/outbox/outbox.worker';

const MINUTE = 60_000;

type History = Array<{
  field: string;
  from: string | null;
  to: string;
  actor: string;
  reason?: string;
}>;

/** The moves of an order's status after its placement. */
const moves = (history: History) => history.filter((e) => e.field === 'status' && e.from !== null);

// R90: the acceptance deadline.
// R91: one rejection across replicas.
// R92: the refund of a late order.
describe('the acceptance deadline: orders nobody accepts reject and refund themselves', () => {
  let card: CardPayments;
  let t: TestApp;
  let clock: Clock;
  let worker: AcceptanceDeadlineWorker;
  let late: Catalog;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    card = await startCardPayments({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      catalog: {
        business: { extra_data: { acceptance_deadline_minutes: 10 } },
        items: [{ extra_data: { unit_price_amount: '20.00' } }],
      },
    });
    t = card.t;
    late = card.catalog;
    clock = t.app.get(Clock);
    worker = t.app.get(AcceptanceDeadlineWorker);
    await receiver.start();
  });
  afterEach(() => clock.reset());
  afterAll(async () => {
    await receiver.stop();
    await card?.close();
  });

  const place = (catalog: Catalog, overrides: Record<string, unknown> = {}) =>
    placeOrder(
      t,
      orderBody(catalog, {
        amount: '20.00',
        cart_items: [cartLine(catalog.items[0], 1)],
        ...overrides,
      }),
    );
  const read = async (order: { uuid: string }) =>
    expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(card.owner.headers));
  const guestRead = async (order: { uuid: string; order_token: string }) =>
    expectOk(await t.http.get(`${t.orders}/order/${order.uuid}`).set(asGuest(t, order)));
  /** Moves the service clock to `minutes` after the order was placed. */
  const at = (order: { created_at: string }, minutes: number) =>
    clock.set(new Date(new Date(order.created_at).getTime() + minutes * MINUTE));
  const accept = (order: { uuid: string }) =>
    updateOrderRequest(t, card.owner.headers, order.uuid, { status: 'accepted' });

  it('rejects a pending order at its deadline, not before: the system, with its reason', async () => {
    const order = await place(late, { customer_requested_order_email_copy: true });
    at(order, 9.5);
    await worker.runDue();
    expect((await read(order)).status).toBe('pending');

    at(order, 10);
    await worker.runDue();
    const owner = await read(order);
    expect(owner.status).toBe('rejected');
    const [entry] = moves(owner.history);
    expect(entry).toMatchObject({
      to: 'rejected',
      actor: 'system',
      reason: 'not_accepted_in_time',
    });
    // The guest's order page says so, with the reason.
    const guest = await guestRead(order);
    expect(guest.status).toBe('rejected');
    expect((guest.history as History).at(-1)).toMatchObject({
      to: 'rejected',
      reason: 'not_accepted_in_time',
    });
    // The owner hears of it.
    const notes = expectOk(
      await t.http.get(`${t.core}/notification/user/${card.owner.uuid}`).set(card.owner.headers),
    );
    expect(notes).toContainEqual(
      expect.objectContaining({
        kind: 'order.expired',
        data: expect.objectContaining({ order_uuid: order.uuid }),
      }),
    );
    // The mail copy the guest asked for.
    await drainOutbox(t);
    const mails = await readMails(t, order.customer_email_address);
    expect(mails.map((m) => m.subject)).toContainEqual(expect.stringMatching(/was not accepted/));
    // Final: accepting it now is 422, and nothing changes.
    expectError(await accept(order), 422, 'UNPROCESSABLE');
    expect((await read(order)).status).toBe('rejected');
    // Another pass does nothing more.
    await worker.runDue();
    expect((await read(order)).history).toHaveLength(owner.history.length);
  });

  it('tells the webhooks, and refunds money that arrives after the rejection', async () => {
    expectOk(
      await t.http
        .post(`${t.core}/webhooks`)
        .set(card.owner.headers)
        .send({ url: receiver.url('/late'), events: ['order.status_changed'] }),
      201,
    );
    const order = await place(late, { payment_processor: 'paystack' });
    at(order, 12);
    await worker.runDue();
    await t.app.get(OutboxWorker).drain();
    const sent = receiver.received.filter((r) => r.path === '/late').map((r) => JSON.parse(r.body));
    expect(sent).toEqual([
      expect.objectContaining({
        type: 'order.status_changed',
        data: { order: expect.objectContaining({ uuid: order.uuid, status: 'rejected' }) },
      }),
    ]);
    // The guest completes the abandoned checkout anyway: the money is real, and goes back.
    const calls = card.fake.refunds.length;
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, order.payment.reference));
    expect((await read(order)).payment.amount_paid).toBe('20.00');
    await worker.runDue();
    expect(card.fake.refunds.slice(calls).map((body) => body.transaction)).toEqual([
      order.payment.reference,
    ]);
    expect((await read(order)).payment).toMatchObject({ status: 'refunded' });
  });

  it('leaves alone a business without the setting and an order accepted in time', async () => {
    const plain = await newCatalog(t, card.owner, {
      items: [{ extra_data: { unit_price_amount: '20.00' } }],
    });
    const other = await place(plain);
    const accepted = await place(late);
    at(accepted, 9);
    expectOk(await accept(accepted));
    at(other, 300);
    await worker.runDue();
    expect((await read(other)).status).toBe('pending');
    expect((await read(accepted)).status).toBe('accepted');
  });

  it('refunds a paid card order in full through Paystack, once, and abandons open checkouts', async () => {
    const paid = await place(late, { payment_processor: 'paystack' });
    await card.fake.sendWebhook(card.webhookUrl, chargeSuccess(card.fake, paid.payment.reference));
    const open = await place(late, { payment_processor: 'paystack' });
    const calls = card.fake.refunds.length;
    at(paid, 11);
    // Two passes at once (as two replicas would): one rejection, one refund.
    await Promise.all([
      worker.runDue(),
      worker.runDue(),
      t.app.get(AcceptanceDeadlineWorker).runDue(),
    ]);
    await worker.runDue();
    const made = card.fake.refunds.slice(calls);
    expect(made.map((body) => [body.transaction, body.amount])).toEqual([
      [paid.payment.reference, 2000],
    ]);
    const after = await read(paid);
    expect(after.status).toBe('rejected');
    expect(after.payment).toMatchObject({ status: 'refunded', amount_refunded: '20.00' });
    const unpaid = await read(open);
    expect(unpaid.status).toBe('rejected');
    expect(unpaid.payments.map((p: { status: string }) => p.status)).toEqual(['abandoned']);
    expect(moves(unpaid.history)).toHaveLength(1);
  });

  it('an order accepted at its deadline is either accepted or rejected, never both', async () => {
    for (let round = 0; round < 3; round++) {
      const order = await place(late);
      at(order, 10);
      const [answer] = await Promise.all([accept(order), worker.runDue()]);
      const final = await read(order);
      expect(moves(final.history)).toHaveLength(1);
      if (answer.status === 200) {
        expect(final.status).toBe('accepted');
      } else {
        expectError(answer, 422, 'UNPROCESSABLE');
        expect(final.status).toBe('rejected');
      }
    }
  });

  it('rejects an order for later at its requested time minus the prep time', async () => {
    const later = await newCatalog(t, card.owner, {
      business: { extra_data: { acceptance_deadline_minutes: 10 } },
      menu: {
        extra_data: {
          fulfilment: {
            modes: ['pickup'],
            prep_time_minutes: 30,
            scheduling: { enabled: true, slot_minutes: 15, max_days_ahead: 7 },
          },
        },
      },
      items: [{ extra_data: { unit_price_amount: '20.00' } }],
    });
    const requested = new Date(
      Math.ceil((Date.now() + 3 * 60 * MINUTE) / (15 * MINUTE)) * 15 * MINUTE,
    );
    const order = await place(later, { requested_time: requested.toISOString() });
    // Long past the 10 minutes of an order for now, but the kitchen need not start yet.
    clock.set(new Date(requested.getTime() - 31 * MINUTE));
    await worker.runDue();
    expect((await read(order)).status).toBe('pending');
    const taken = async () =>
      (
        await t.dataSource.query(
          `SELECT coalesce(sum(taken), 0)::int AS n FROM order_slots WHERE menu_uuid = $1`,
          [later.menu.uuid],
        )
      )[0].n;
    expect(await taken()).toBe(1);
    clock.set(new Date(requested.getTime() - 30 * MINUTE));
    await worker.runDue();
    expect((await read(order)).status).toBe('rejected');
    // Its slot place is given back.
    expect(await taken()).toBe(0);
  });

  it('validates the setting (1–240) and lets only the owner set it', async () => {
    const manager = await createUser(t);
    await addMember(t, card.owner, late.business.uuid, manager, 'manager');
    const path = entityPath(t, 'business', late.business.uuid);
    for (const bad of [0, 241, 'ten', 2.5]) {
      const res = await t.http
        .put(path)
        .set(card.owner.headers)
        .send({ ...late.business, extra_data: { acceptance_deadline_minutes: bad } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(res.body.error.details)).toContain('acceptance_deadline_minutes');
    }
    const byManager = await t.http
      .put(path)
      .set(manager.headers)
      .send({ ...late.business, extra_data: { acceptance_deadline_minutes: 30 } });
    expectError(byManager, 403, 'FORBIDDEN');
    const stored = expectOk(await t.http.get(path).set(card.owner.headers));
    expect(stored.extra_data.acceptance_deadline_minutes).toBe(10);
  });
});

describe('the acceptance deadline across two service processes on one database', () => {
  serverOnly('rejects and refunds a late paid order once', async () => {
    const db = await createTestDatabase();
    const card = await startCardPayments({
      database: db,
      catalog: {
        business: { extra_data: { acceptance_deadline_minutes: 10 } },
        items: [{ extra_data: { unit_price_amount: '20.00' } }],
      },
    });
    let second: TestApp | undefined;
    try {
      second = await startTestApp(
        { PAYSTACK_SECRET_KEY: card.fake.secretKey, PAYSTACK_BASE_URL: card.fake.url },
        { database: db },
      );
      const order = await placeOrder(
        card.t,
        orderBody(card.catalog, {
          payment_processor: 'paystack',
          amount: '20.00',
          cart_items: [cartLine(card.catalog.items[0], 1)],
        }),
      );
      await card.fake.sendWebhook(
        card.webhookUrl,
        chargeSuccess(card.fake, order.payment.reference),
      );
      const deadline = new Date(new Date(order.created_at).getTime() + 10 * MINUTE);
      const apps = [card.t, second];
      for (const app of apps) app.app.get(Clock).set(deadline);
      const counts = await Promise.all(
        apps.map((app) => app.app.get(AcceptanceDeadlineWorker).runDue()),
      );
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      await Promise.all(apps.map((app) => app.app.get(AcceptanceDeadlineWorker).runDue()));
      expect(
        card.fake.refunds
          .filter((body) => body.transaction === order.payment.reference)
          .map((body) => body.amount),
      ).toEqual([2000]);
    } finally {
      await second?.close();
      await card.close();
      await db.drop();
    }
  });
});
