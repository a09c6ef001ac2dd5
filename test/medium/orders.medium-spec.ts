import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EventBus } from '../../src/database/event-bus';
import { isChecksDue } from '../../src/database/writes-before-commit';
import { IdempotencyRepository } from '../../src/order/idempotency.repository';
import { NewOrder } from '../../src/order/order-placement.statement';
import { OrderRepository } from '../../src/order/order.repository';
import { OrderSlotsRepository } from '../../src/order/order-slots.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { newOrderFields, orderLine } from '../support/medium-orders';

/**
 * The order module's repositories on a real database, without HTTP: the
 * placement's one statement, the row lock an update takes, the inbox's
 * filters and pages, slot places and idempotency keys under concurrency.
 */
describe('order repositories (medium)', () => {
  let ctx: MediumContext;
  let orders: OrderRepository;
  let slots: OrderSlotsRepository;
  let keys: IdempotencyRepository;

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [OrderRepository, OrderSlotsRepository, IdempotencyRepository],
    });
    orders = ctx.get(OrderRepository);
    slots = ctx.get(OrderSlotsRepository);
    keys = ctx.get(IdempotencyRepository);
  });
  afterAll(() => ctx?.close());

  const owner = randomUUID();
  const business = randomUUID();

  const newOrder = (overrides: Partial<NewOrder> = {}) =>
    newOrderFields(owner, business, overrides);
  const line = orderLine;

  it('writes an order, its lines and its first history entry in one statement, answered as stored', async () => {
    const spy = jest.spyOn(ctx.dataSource.manager, 'query');
    const placed = await orders.insertPlacedOrder(
      ctx.dataSource.manager,
      newOrder(),
      [line(1), line(0)],
      'guest',
    );
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(placed.order).toMatchObject({
      status: 'pending',
      amount: '42.50',
      serviceCharge: '2.50',
      deliveryData: { delivery_address: 'Lekki' },
      pricingRates: { service_charge: { rate_percent: '6.25' } },
      orderReference: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/),
    });
    expect(placed.lines.map((l) => [l.position, l.unitPriceAmount, l.itemNote])).toEqual([
      [0, '10.00', 'no onions'],
      [1, '10.00', null],
    ]);
    expect(placed.lines[0].options).toEqual([
      {
        group: 'size',
        group_title: 'Size',
        option: 'large',
        option_title: 'Large',
        price_delta: '1.50',
      },
    ]);
    expect(placed.events).toEqual([
      expect.objectContaining({
        field: 'status',
        fromValue: null,
        toValue: 'pending',
        actor: 'guest',
      }),
    ]);
    const lines = await orders.linesOf([placed.order.uuid]);
    expect(lines.get(placed.order.uuid)!.map((l) => l.position)).toEqual([0, 1]);
  });

  it('writes a change and its history entries in one statement, entries in the order given; nothing for an order that is not there', async () => {
    const { order, events } = await orders.insertPlacedOrder(
      ctx.dataSource.manager,
      newOrder(),
      [line(0)],
      'guest',
    );
    const by = randomUUID();
    const spy = jest.spyOn(ctx.dataSource.manager, 'query');
    const updated = await orders.updateOrder(
      ctx.dataSource.manager,
      order.uuid,
      { status: 'accepted', ownerNote: 'table 4' },
      [
        {
          field: 'status',
          fromValue: 'pending',
          toValue: 'accepted',
          actorUuid: by,
          actor: 'owner',
        },
        {
          field: 'owner_note',
          fromValue: null,
          toValue: 'table 4',
          actorUuid: by,
          actor: 'owner',
          reason: 'asked',
        },
      ],
    );
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    expect(updated).toMatchObject({ uuid: order.uuid, status: 'accepted', ownerNote: 'table 4' });
    const history = (await orders.eventsOf([order.uuid])).get(order.uuid)!;
    expect(
      history.map((e) => [e.field, e.fromValue, e.toValue, e.actorUuid, e.actor, e.reason]),
    ).toEqual([
      [events[0].field, null, 'pending', null, 'guest', null],
      ['status', 'pending', 'accepted', by, 'owner', null],
      ['owner_note', null, 'table 4', by, 'owner', 'asked'],
    ]);

    const missing = randomUUID();
    expect(
      await orders.updatePaymentModel(
        ctx.dataSource.manager,
        missing,
        { paymentState: 'paid', paymentStatus: 'paid', amountPaid: '1.00', amountRefunded: '0.00' },
        [
          {
            field: 'payment',
            fromValue: 'unpaid',
            toValue: 'paid',
            actorUuid: null,
            actor: 'system',
          },
        ],
      ),
    ).toBeUndefined();
    const [{ n }] = await ctx.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM order_events WHERE order_uuid = $1',
      [missing],
    );
    expect(n).toBe(0);
  });

  it('writes a payment model as placed only while nothing else wrote the order, also once a concurrent writer commits', async () => {
    const model = {
      paymentState: 'pending',
      paymentStatus: 'unpaid',
      amountPaid: '0.00',
      amountRefunded: '0.00',
    } as const;
    const entry = {
      field: 'payment',
      fromValue: 'unpaid',
      toValue: 'pending',
      actorUuid: null,
      actor: 'system',
    } as const;
    const historyOf = async (uuid: string) =>
      (await orders.eventsOf([uuid])).get(uuid)!.map((e) => e.field);
    const m = ctx.dataSource.manager;

    // As placed: written, with its history entry.
    const fresh = (await orders.insertPlacedOrder(m, newOrder(), [line(0)], 'guest')).order;
    const written = await orders.updatePaymentModel(m, fresh.uuid, model, [entry], true);
    expect(written!.order).toMatchObject({ paymentState: 'pending' });
    expect(await historyOf(fresh.uuid)).toEqual(['status', 'payment']);
    // Written since (by that very change): refused with SV001, nothing written.
    const outcome = (write: Promise<unknown>) =>
      write.then(
        () => 'written',
        (error: unknown) => (isChecksDue(error) ? 'SV001' : String(error)),
      );
    const again = orders.updatePaymentModel(
      m,
      fresh.uuid,
      { ...model, paymentState: 'failed' },
      [entry],
      true,
    );
    expect(await outcome(again)).toBe('SV001');
    expect(await orders.findByUuid(fresh.uuid)).toMatchObject({ paymentState: 'pending' });
    expect(await historyOf(fresh.uuid)).toEqual(['status', 'payment']);

    // A writer that commits while the check waits for the row: checked on its row.
    const raced = (await orders.insertPlacedOrder(m, newOrder(), [line(0)], 'guest')).order;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const hasLock = new Promise<void>((resolve) => (locked = resolve));
    const writer = ctx.dataSource.transaction(async (manager) => {
      await orders.updateOrder(manager, raced.uuid, { status: 'accepted' });
      locked();
      await held;
    });
    await hasLock;
    const checked = outcome(orders.updatePaymentModel(m, raced.uuid, model, [entry], true));
    // The check is waiting for the writer's row lock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await writer;
    expect(await checked).toBe('SV001');
    expect(await orders.findByUuid(raced.uuid)).toMatchObject({
      status: 'accepted',
      paymentState: 'unpaid',
    });
    expect(await historyOf(raced.uuid)).toEqual(['status']);
  });

  it('makes a concurrent update wait for the row lock and see its result', async () => {
    const { order } = await orders.insertPlacedOrder(
      ctx.dataSource.manager,
      newOrder(),
      [line(0)],
      'guest',
    );
    const seen: string[] = [];
    const bus = ctx.get(EventBus);
    const accept = (to: 'accepted' | 'rejected') =>
      bus.transaction(async (tx) => {
        const locked = await orders.findForUpdate(tx.manager, order.uuid);
        seen.push(locked!.status);
        if (locked!.status === 'pending')
          await orders.updateOrder(tx.manager, order.uuid, { status: to });
      });
    await Promise.all([accept('accepted'), accept('rejected')]);
    // The second waited for the first's commit and saw what it wrote.
    expect(seen).toHaveLength(2);
    expect(seen).toContain('pending');
    const written = seen.find((status) => status !== 'pending');
    expect(['accepted', 'rejected']).toContain(written);
    expect((await orders.findByUuid(order.uuid))!.status).toBe(written);
  });

  it('lists one owner’s orders newest first with filters and stable pages, and a member’s businesses', async () => {
    const mine = randomUUID();
    const team = randomUUID();
    const placed = [];
    for (const status of ['pending', 'accepted', 'pending'] as const) {
      const { order } = await orders.insertPlacedOrder(
        ctx.dataSource.manager,
        newOrder({ ownerUuid: mine }),
        [line(0)],
        'guest',
      );
      if (status !== 'pending')
        await orders.updateOrder(ctx.dataSource.manager, order.uuid, { status });
      placed.push(order.uuid);
    }
    await orders.insertPlacedOrder(
      ctx.dataSource.manager,
      newOrder({ ownerUuid: randomUUID(), businessUuid: team }),
      [line(0)],
      'guest',
    );
    const page1 = await orders.listForOwner(mine, {}, 1, 2);
    const page2 = await orders.listForOwner(mine, {}, 2, 2);
    expect(page1.total).toBe(3);
    expect([...page1.orders, ...page2.orders].map((o) => o.uuid)).toEqual([...placed].reverse());
    expect(
      (await orders.listForOwner(mine, { status: 'accepted' }, 1, 10)).orders.map((o) => o.uuid),
    ).toEqual([placed[1]]);
    expect((await orders.listForOwner(mine, {}, 1, 10, [team])).total).toBe(4);
  });

  it('counts slot places exactly under parallel takes, and frees one once', async () => {
    const menu = randomUUID();
    const start = new Date('2026-06-04T12:00:00Z');
    // Whether the place was taken: `full` throws, rolling its transaction back.
    const take = (manager: EntityManager, cap: number | null) =>
      slots
        .take(manager, menu, start, cap, async () => {
          throw new Error('full');
        })
        .then(
          () => true,
          (error: Error) => (error.message === 'full' ? false : Promise.reject(error)),
        );
    const taken = await Promise.all(
      Array.from({ length: 12 }, () => ctx.dataSource.transaction((manager) => take(manager, 5))),
    );
    expect(taken.filter(Boolean)).toHaveLength(5);
    expect((await slots.counts(menu, [start])).get(start.getTime())).toBe(5);
    await slots.release(ctx.dataSource.manager, menu, start);
    expect((await slots.counts(menu, [start])).get(start.getTime())).toBe(4);
    expect(await take(ctx.dataSource.manager, null)).toBe(true);
    expect((await slots.counts(menu, [start])).get(start.getTime())).toBe(5);
  });

  it('takes a place with the commit, and refuses a full slot once its transaction runs again', async () => {
    const menu = randomUUID();
    const start = new Date('2026-06-05T12:00:00Z');
    const bus = ctx.get(EventBus);
    let runs = 0;
    const place = () =>
      bus
        .transaction(async (tx) => {
          runs++;
          await slots.take(tx.manager, menu, start, 3, async () => {
            throw new Error('full');
          });
        })
        .then(
          () => true,
          (error: Error) => (error.message === 'full' ? false : Promise.reject(error)),
        );
    const taken = await Promise.all(Array.from({ length: 8 }, place));
    expect(taken.filter(Boolean)).toHaveLength(3);
    // A taken place commits with the statement; a full slot fails it, and the run again refuses.
    expect(runs).toBe(8 + 5);
    expect((await slots.counts(menu, [start])).get(start.getTime())).toBe(3);
  });

  it('gives an idempotency key to one transaction, and to a new one once it expired', async () => {
    const now = new Date();
    const claim = (hash: string, at = now, expiredBefore = new Date(now.getTime() - 86_400_000)) =>
      ctx.dataSource.transaction((manager) =>
        keys.claim(manager, 'order.place', 'k-1', hash, at, expiredBefore),
      );
    const results = await Promise.all([claim('a'), claim('b'), claim('c')]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await claim('d', new Date(now.getTime() + 1), now)).toBe(false);
    expect(await claim('e', new Date(now.getTime() + 2), new Date(now.getTime() + 1))).toBe(true);
    expect((await keys.find(ctx.dataSource.manager, 'order.place', 'k-1'))?.requestHash).toBe('e');
    expect(await keys.purgeOlderThan(new Date(now.getTime() + 3))).toBe(1);
  });
});
