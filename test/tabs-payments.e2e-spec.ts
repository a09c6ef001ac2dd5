import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { guestHeaders, orderBody, placeOrderRequest } from './support/order';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';
import { OutboxWorker } from '../src/outbox/outbox.worker';

// R113: a tab closes by itself when what is paid reaches its total.
// R114: one share is paid once, however many record it at once.
// R115: `tab.closed` goes to the webhooks.
/**
 * Paying a tab's shares through payment records of their own: the team
 * records cash or a transfer with a tip; a share is paid once; the last
 * share closes the tab and its rounds are paid.
 */
describe('tabs: paying the shares', () => {
  let t: TestApp;
  let owner: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let catalog: Catalog;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    await receiver.start();
    [owner, staff, outsider] = [await createUser(t), await createUser(t), await createUser(t)];
    catalog = await newCatalog(t, owner, {
      menu: {
        extra_data: { fulfilment: { modes: ['dine_in'], dine_in: { pay_at_end: true } } },
      },
      items: [{ extra_data: { unit_price_amount: '10.01' } }],
    });
    await addMember(t, owner, catalog.business.uuid, staff, 'staff');
  });

  afterAll(async () => {
    await receiver.stop();
    await t.close();
  });

  /** A tab at `table` of one round of 10.01, split equally in `parts`. */
  async function splitTab(table: string, parts: number) {
    const placed = expectOk(
      await placeOrderRequest(
        t,
        orderBody(catalog, { onpremise_data: { customer_onpremise_location: table } }),
      ),
      201,
    );
    const tab = expectOk(
      await t.http
        .post(`${t.core}/tabs/${placed.tab.uuid}/split`)
        .set(staff.headers)
        .send({ by: 'equal', parts }),
    );
    return { round: placed, tab };
  }

  const pay = (user: TestUser, tab: string, share: string, body: object) =>
    t.http.post(`${t.core}/tabs/${tab}/shares/${share}/payments`).set(user.headers).send(body);

  async function paymentsOf(share: string): Promise<number> {
    const [row] = await t.dataSource.query(
      'SELECT count(*)::int AS n FROM payments WHERE share_uuid = $1',
      [share],
    );
    return row.n;
  }

  it('records a share paid with its tip; the last share closes the tab and pays its rounds', async () => {
    expectOk(
      await t.http
        .post(`${t.core}/webhooks`)
        .set(owner.headers)
        .send({ url: receiver.url('/tabs'), events: ['tab.closed'] }),
      201,
    );
    const { round, tab } = await splitTab('t1', 2);
    expect(tab.shares.map((s: any) => s.amount)).toEqual(['5.01', '5.00']);
    const [first, second] = tab.shares;

    const afterFirst = expectOk(
      await pay(staff, tab.uuid, first.uuid, { method: 'cash', tip_amount: '2.00' }),
      201,
    );
    expect(afterFirst).toMatchObject({ status: 'settling', paid: '5.01', due: '5.00' });
    expect(afterFirst.shares[0]).toMatchObject({ status: 'paid', tip: '2.00' });
    expect(afterFirst.shares[0].payments).toEqual([
      expect.objectContaining({
        method: 'cash',
        channel: 'manual',
        status: 'paid',
        amount: '5.01',
      }),
    ]);
    // Paid once: the same share again is 409 and nothing is written.
    expectError(await pay(owner, tab.uuid, first.uuid, { method: 'cash' }), 409, 'CONFLICT');
    expect(await paymentsOf(first.uuid)).toBe(1);

    const closed = expectOk(
      await pay(staff, tab.uuid, second.uuid, { method: 'bank_transfer' }),
      201,
    );
    expect(closed).toMatchObject({
      status: 'closed',
      paid: '10.01',
      due: '0.00',
      close_reason: null,
    });
    expect(closed.rounds[0].payment_status).toBe('paid');
    const [row] = await t.dataSource.query('SELECT payment_status FROM orders WHERE uuid = $1', [
      round.uuid,
    ]);
    expect(row.payment_status).toBe('paid');
    // The round's own payments are untouched: it never had one.
    expect(closed.rounds[0].payments).toEqual([]);
    expectError(await pay(staff, tab.uuid, second.uuid, { method: 'cash' }), 409, 'CONFLICT');

    // The owner's endpoint hears that the tab closed, once.
    await t.app.get(OutboxWorker).drain();
    const sent = receiver.received.filter((request) => request.path === '/tabs');
    expect(sent).toHaveLength(1);
    const event = JSON.parse(sent[0].body);
    expect(event.type).toBe('tab.closed');
    expect(event.data.tab).toMatchObject({
      uuid: tab.uuid,
      status: 'closed',
      total: '10.01',
      paid: '10.01',
      due: '0.00',
      round_uuids: [round.uuid],
    });
  });

  it('people recording one share at once record it once', async () => {
    const { tab } = await splitTab('t2', 3);
    const share = tab.shares[1];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => pay(staff, tab.uuid, share.uuid, { method: 'cash' })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await paymentsOf(share.uuid)).toBe(1);
  });

  it('refuses an outsider, an unknown or replaced share and a method it does not take, writing nothing', async () => {
    const { tab } = await splitTab('t3', 2);
    const share = tab.shares[0];
    expectError(await pay(outsider, tab.uuid, share.uuid, { method: 'cash' }), 404, 'NOT_FOUND');
    expectError(
      await pay(staff, tab.uuid, share.uuid, { method: 'paystack' }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await pay(staff, tab.uuid, share.uuid, { method: 'cash', tip_amount: '-1' }),
      400,
      'VALIDATION_FAILED',
    );
    // A new split replaces the unpaid shares: the old one is gone.
    expectOk(
      await t.http
        .post(`${t.core}/tabs/${tab.uuid}/split`)
        .set(staff.headers)
        .send({ by: 'equal', parts: 3 }),
    );
    expectError(await pay(staff, tab.uuid, share.uuid, { method: 'cash' }), 404, 'NOT_FOUND');
    expect(await paymentsOf(share.uuid)).toBe(0);
    // The guest cannot record cash: that route is the team's.
    const guest = await t.http
      .post(`${t.core}/tabs/${tab.uuid}/shares/${share.uuid}/payments`)
      .set(guestHeaders(t))
      .send({ method: 'cash' });
    expect(guest.status).toBe(401);
  });

  it('a re-split after a paid share splits only what is unpaid', async () => {
    const { tab } = await splitTab('t4', 2);
    expectOk(await pay(staff, tab.uuid, tab.shares[0].uuid, { method: 'cash' }), 201);
    const again = expectOk(
      await t.http
        .post(`${t.core}/tabs/${tab.uuid}/split`)
        .set(staff.headers)
        .send({ by: 'amount', amounts: ['3.00', '2.00'] }),
    );
    expect(again.shares.map((s: any) => [s.amount, s.status])).toEqual([
      ['5.01', 'paid'],
      ['3.00', 'unpaid'],
      ['2.00', 'unpaid'],
    ]);
    expect(again.due).toBe('5.00');
  });
});
