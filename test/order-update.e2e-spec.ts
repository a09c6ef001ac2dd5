import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

type Status =
  | 'pending'
  | 'accepted'
  | 'preparing'
  | 'ready'
  | 'out_for_delivery'
  | 'completed'
  | 'rejected'
  | 'cancelled';

const STATUSES: Status[] = [
  'pending',
  'accepted',
  'preparing',
  'ready',
  'out_for_delivery',
  'completed',
  'rejected',
  'cancelled',
];

/** The allowed status moves, written out independently of the implementation. */
const ALLOWED: Record<Status, Status[]> = {
  pending: ['accepted', 'rejected', 'cancelled'],
  accepted: ['preparing', 'ready', 'cancelled'],
  preparing: ['ready', 'cancelled'],
  ready: ['out_for_delivery', 'completed'],
  out_for_delivery: ['completed'],
  completed: [],
  rejected: [],
  cancelled: [],
};

/** Allowed moves that bring a new order to each state. */
const PATH_TO: Record<Status, Status[]> = {
  pending: [],
  accepted: ['accepted'],
  preparing: ['accepted', 'preparing'],
  ready: ['accepted', 'ready'],
  out_for_delivery: ['accepted', 'ready', 'out_for_delivery'],
  completed: ['accepted', 'ready', 'completed'],
  rejected: ['rejected'],
  cancelled: ['cancelled'],
};

const ALLOWED_PAIRS = STATUSES.flatMap((from) => ALLOWED[from].map((to) => [from, to] as const));

// R23: order states.
// R33: owner payment updates.
describe('owner order update and the order state machine', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let catalog: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    stranger = await createUser(t);
    catalog = await newCatalog(t, owner);
  });
  afterAll(() => t?.close());

  function update(orderUuid: string, body: Record<string, unknown>, user: TestUser = owner) {
    return updateOrderRequest(t, user.headers, orderUuid, body);
  }

  async function stored(orderUuid: string) {
    const [row] = await t.dataSource.query(
      `SELECT status, payment_status, owner_note, updated_at,
              (SELECT count(*)::int FROM order_events WHERE order_uuid = $1) AS events
       FROM orders WHERE uuid = $1`,
      [orderUuid],
    );
    return row as {
      status: Status;
      payment_status: string;
      owner_note: string | null;
      updated_at: Date;
      events: number;
    };
  }

  /** A new order of `owner`, moved to `status` through allowed moves. */
  async function orderIn(status: Status): Promise<string> {
    const order = await placeOrder(t, orderBody(catalog));
    for (const next of PATH_TO[status]) {
      expectOk(await update(order.uuid, { status: next }));
    }
    expect((await stored(order.uuid)).status).toBe(status);
    return order.uuid;
  }

  describe('transitions', () => {
    it.each(ALLOWED_PAIRS)('allows %s → %s and records it in the history', async (from, to) => {
      const uuid = await orderIn(from);
      const before = await stored(uuid);
      const res = await update(uuid, { status: to });
      const order = expectOk(res);
      expect(res.body.message).toBe('Order updated');
      expect(order.status).toBe(to);
      expect(order.history.at(-1)).toEqual({
        field: 'status',
        from,
        to,
        by: owner.uuid,
        actor: 'owner',
        at: expect.any(String),
      });
      expect(order.history[0]).toEqual(
        expect.objectContaining({ from: null, to: 'pending', by: null }),
      );
      expect(order.history.filter((e: { field: string }) => e.field === 'status')).toHaveLength(
        PATH_TO[from].length + 2,
      );
      const after = await stored(uuid);
      expect(after.status).toBe(to);
      expect(after.events).toBe(before.events + 1);
      expect(after.updated_at.getTime()).toBeGreaterThanOrEqual(before.updated_at.getTime());
    });

    it.each(STATUSES)(
      'refuses every other move from %s with 422 naming the allowed ones',
      async (from) => {
        const uuid = await orderIn(from);
        const before = await stored(uuid);
        const forbidden = STATUSES.filter((to) => !ALLOWED[from].includes(to));
        expect(forbidden.length).toBeGreaterThan(0);
        for (const to of forbidden) {
          const res = await update(uuid, { status: to });
          expectError(res, 422, 'UNPROCESSABLE');
          expect(res.body.error.details).toEqual([
            expect.objectContaining({
              field: 'status',
              current_status: from,
              allowed: ALLOWED[from],
            }),
          ]);
          expect(await stored(uuid)).toEqual(before);
        }
      },
    );

    it('refuses an unknown status with 400', async () => {
      const uuid = await orderIn('pending');
      const before = await stored(uuid);
      for (const status of ['shipped', 'PENDING', '', 3]) {
        expectError(await update(uuid, { status }), 400, 'VALIDATION_FAILED');
      }
      expect(await stored(uuid)).toEqual(before);
    });
  });

  describe('payment status and owner note', () => {
    it('moves unpaid → paid → refunded and refuses going back', async () => {
      const uuid = await orderIn('pending');
      const paid = expectOk(await update(uuid, { payment_status: 'paid' }));
      expect(paid.payment_status).toBe('paid');
      expect(paid.history.at(-1)).toMatchObject({
        field: 'payment',
        from: 'unpaid',
        to: 'paid',
        by: owner.uuid,
        actor: 'owner',
      });
      const before = await stored(uuid);
      const back = await update(uuid, { payment_status: 'unpaid' });
      expectError(back, 422, 'UNPROCESSABLE');
      expect(back.body.error.details[0]).toMatchObject({
        field: 'payment_status',
        allowed: ['refunded'],
      });
      expect(await stored(uuid)).toEqual(before);
      expect(expectOk(await update(uuid, { payment_status: 'refunded' })).payment_status).toBe(
        'refunded',
      );
      expectError(await update(uuid, { payment_status: 'paid' }), 422, 'UNPROCESSABLE');
      expectError(await update(uuid, { payment_status: 'settled' }), 400, 'VALIDATION_FAILED');
    });

    it('stores the owner note with history, ignores an unchanged one and clears it with ""', async () => {
      const uuid = await orderIn('pending');
      const noted = expectOk(await update(uuid, { owner_note: 'Call when ready' }));
      expect(noted.owner_note).toBe('Call when ready');
      expect(noted.history.at(-1)).toMatchObject({
        field: 'owner_note',
        from: null,
        to: 'Call when ready',
      });
      const before = await stored(uuid);
      expect(expectOk(await update(uuid, { owner_note: 'Call when ready' })).owner_note).toBe(
        'Call when ready',
      );
      expect((await stored(uuid)).events).toBe(before.events);
      const cleared = expectOk(await update(uuid, { owner_note: '' }));
      expect(cleared.owner_note).toBeNull();
      expectError(await update(uuid, { owner_note: 'x'.repeat(1001) }), 400, 'VALIDATION_FAILED');
      expect((await stored(uuid)).owner_note).toBeNull();
    });

    it('applies status and payment status together, or neither when one is refused', async () => {
      const uuid = await orderIn('pending');
      const before = await stored(uuid);
      const refused = await update(uuid, { status: 'completed', payment_status: 'paid' });
      expectError(refused, 422, 'UNPROCESSABLE');
      expect(await stored(uuid)).toEqual(before);
      const both = expectOk(await update(uuid, { status: 'accepted', payment_status: 'paid' }));
      expect(both).toMatchObject({ status: 'accepted', payment_status: 'paid' });
      expect((await stored(uuid)).events).toBe(before.events + 2);
    });

    it('refuses a body with nothing to change with 400', async () => {
      const uuid = await orderIn('pending');
      const before = await stored(uuid);
      expectError(await update(uuid, {}), 400, 'VALIDATION_FAILED');
      expectError(await update(uuid, { expected_status: 'pending' }), 400, 'VALIDATION_FAILED');
      expect(await stored(uuid)).toEqual(before);
    });
  });

  describe('expected_status (optimistic check)', () => {
    it('updates when it matches and answers 409 without changes when it does not', async () => {
      const uuid = await orderIn('pending');
      expectOk(await update(uuid, { status: 'accepted', expected_status: 'pending' }));
      const before = await stored(uuid);
      const res = await update(uuid, { status: 'cancelled', expected_status: 'pending' });
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.details[0]).toMatchObject({
        field: 'expected_status',
        current_status: 'accepted',
      });
      expect(await stored(uuid)).toEqual(before);
    });

    it('lets one of two concurrent updates with the same expected_status win; the other gets 409', async () => {
      for (let round = 0; round < 3; round++) {
        const uuid = await orderIn('pending');
        const before = await stored(uuid);
        const [a, b] = await Promise.all([
          update(uuid, { status: 'accepted', expected_status: 'pending' }),
          update(uuid, { status: 'rejected', expected_status: 'pending' }),
        ]);
        const statuses = [a.status, b.status].sort();
        expect(statuses).toEqual([200, 409]);
        const winner = a.status === 200 ? a : b;
        const loser = a.status === 200 ? b : a;
        expectError(loser, 409, 'CONFLICT');
        const after = await stored(uuid);
        expect(after.status).toBe(winner.body.data.status);
        expect(after.events).toBe(before.events + 1);
      }
    });
  });

  describe('only the owner of the order’s business', () => {
    it('refuses another user with 403 and changes nothing', async () => {
      const uuid = await orderIn('pending');
      const before = await stored(uuid);
      for (const body of [
        { status: 'accepted' },
        { payment_status: 'paid' },
        { owner_note: 'mine' },
      ]) {
        expectError(await update(uuid, body, stranger), 403, 'FORBIDDEN');
      }
      expect(await stored(uuid)).toEqual(before);
    });

    it('answers 404 for an unknown or malformed id and 401 without a token', async () => {
      const uuid = await orderIn('pending');
      const before = await stored(uuid);
      expectError(
        await update('00000000-0000-4000-8000-000000000000', { status: 'accepted' }),
        404,
        'NOT_FOUND',
      );
      expectError(await update('ORDER-1', { status: 'accepted' }), 404, 'NOT_FOUND');
      expectError(
        await updateOrderRequest(t, apiHeaders(t), uuid, { status: 'accepted' }),
        401,
        'UNAUTHENTICATED',
      );
      expect(await stored(uuid)).toEqual(before);
    });

    it('lets the owner of another business update only their own orders', async () => {
      const theirs = await newCatalog(t, stranger);
      const order = await placeOrder(t, orderBody(theirs));
      expectError(await update(order.uuid, { status: 'accepted' }), 403, 'FORBIDDEN');
      expect(expectOk(await update(order.uuid, { status: 'accepted' }, stranger)).status).toBe(
        'accepted',
      );
    });
  });
});
