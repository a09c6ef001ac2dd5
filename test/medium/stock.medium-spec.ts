import { randomUUID } from 'node:crypto';
import { EventBus } from '../../src/database/event-bus';
import { ApiError } from '../../src/http/api-error';
import { StockModule, StockService } from '../../src/stock';
import { StockRepository } from '../../src/stock/stock.repository';
import { createMediumContext, MediumContext } from '../support/medium';

/**
 * The stock module's door for every way an order arrives (placement, orders
 * taken by staff, a tab's rounds): takeForOrder in the caller's transaction,
 * and the return when the order ends, heard through `order.changed`.
 */
// R96: portions taken by one conditional update, whoever calls.
// R98: given back once when the order ends.
describe('stock taken through the module’s door, as staff orders and tab rounds take it', () => {
  let ctx: MediumContext;
  let stock: StockService;
  let bus: EventBus;
  const owner = randomUUID();
  const member = randomUUID();
  let businessUuid: string;
  let menuUuid: string;
  let itemUuid: string;
  const extraData = { unit_price_amount: '10.00', stock: { mode: 'count', quantity: 3 } };

  beforeAll(async () => {
    ctx = await createMediumContext({ imports: [StockModule] });
    stock = ctx.get(StockService);
    bus = ctx.get(EventBus);
    const ns = ctx.config.namespace;
    const insert = async (type: string, parent: string | null, extra: unknown) =>
      (
        await ctx.sql<{ uuid: string }>(
          `INSERT INTO entities (entity_type, owned_by, parent_entity_type, parent_entity_uuid, meta_key, extra_data)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING uuid`,
          [
            `${ns}_${type}`,
            owner,
            parent ? `${ns}_${type === 'business_menu' ? 'business' : 'business_menu'}` : null,
            parent,
            `k-${randomUUID().slice(0, 8)}`,
            JSON.stringify(extra),
          ],
        )
      )[0].uuid;
    businessUuid = await insert('business', null, {});
    menuUuid = await insert('business_menu', businessUuid, {});
    itemUuid = await insert('business_menu_item', menuUuid, extraData);
  });
  afterAll(() => ctx?.close());

  const round = (orderUuid: string, quantity: number, position = 0) =>
    bus.transaction((tx) =>
      stock.takeForOrder(tx, {
        orderUuid,
        businessUuid,
        menuUuid,
        ownerUuid: owner,
        businessExtra: {},
        requestedTime: null,
        lines: [{ position, itemUuid, quantity, extraData }],
        actor: 'staff',
        byUuid: member,
      }),
    );
  const taken = async () =>
    (
      await ctx.sql<{ taken: number }>('SELECT taken FROM stock_counts WHERE item_uuid = $1', [
        itemUuid,
      ])
    )[0]?.taken ?? 0;

  it('takes each round of a tab from the same count, and refuses the round that asks too much', async () => {
    const tab = randomUUID();
    await round(tab, 1);
    await round(tab, 1);
    const refused = await round(tab, 2, 4).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).getStatus()).toBe(422);
    expect((refused as ApiError).details[0]).toMatchObject({
      field: 'cart_items.4.quantity',
      remaining: 1,
    });
    expect(await taken()).toBe(2);
    const ledger = await ctx.sql<{ delta: number; actor: string; by_uuid: string }>(
      'SELECT delta, actor, by_uuid FROM stock_ledger WHERE order_uuid = $1',
      [tab],
    );
    expect(ledger).toEqual([
      { delta: -1, actor: 'staff', by_uuid: member },
      { delta: -1, actor: 'staff', by_uuid: member },
    ]);

    // The tab ends cancelled: both rounds come back at once, and only once.
    const cancelled = {
      type: 'order.updated',
      order: { uuid: tab, menuUuid, status: 'cancelled' },
      changes: ['status'],
      previousStatus: 'pending',
    } as never;
    await bus.transaction((tx) => tx.emit('order.changed', cancelled));
    expect(await taken()).toBe(0);
    await bus.transaction((tx) => tx.emit('order.changed', cancelled));
    expect(await taken()).toBe(0);
    const [{ returned }] = await ctx.sql<{ returned: number }>(
      `SELECT sum(delta)::int AS returned FROM stock_ledger WHERE order_uuid = $1 AND reason = 'order_returned'`,
      [tab],
    );
    expect(returned).toBe(2);
  });

  it('lets exactly the portions left win among simultaneous callers', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => round(randomUUID(), 1)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await taken()).toBe(3);
  });
});

/** The repository's one statement for an order's stocked items. */
// R96: every item of an order taken at once, each only where enough remain.
describe('StockRepository.takeAll: an order’s items in one statement', () => {
  let ctx: MediumContext;
  let repository: StockRepository;
  let bus: EventBus;
  const business = randomUUID();
  const period = 'count';

  beforeAll(async () => {
    ctx = await createMediumContext({ imports: [StockModule] });
    repository = ctx.get(StockRepository);
    bus = ctx.get(EventBus);
  });
  afterAll(() => ctx?.close());

  const row = async (itemUuid: string) =>
    (
      await ctx.sql<{ taken: number; adjusted: number }>(
        'SELECT taken, adjusted FROM stock_counts WHERE item_uuid = $1 AND period = $2',
        [itemUuid, period],
      )
    )[0];
  const existing = (itemUuid: string, taken: number, adjusted = 0) =>
    ctx.sql(
      `INSERT INTO stock_counts (item_uuid, period, business_uuid, taken, adjusted)
       VALUES ($1, $2, $3, $4, $5)`,
      [itemUuid, period, business, taken, adjusted],
    );
  const want = (itemUuid: string, portions: number, quantity: number) => ({
    itemUuid,
    period,
    portions,
    quantity,
  });
  /**
   * Takes in a transaction of its own, as placement does (the take leads the
   * statement of the held writes, here a ledger row's); `rollBack` ends it
   * as a refused placement does, from what reads the outcomes.
   */
  const takeAll = async (wanted: Array<ReturnType<typeof want>>, rollBack = false) => {
    let seen: Map<string, { ok: boolean; count: { taken: number; adjusted: number } }> | undefined;
    await bus
      .transaction(async (tx) => {
        await repository.takeAll(tx.manager, business, wanted, async (outcomes) => {
          seen = outcomes;
          if (rollBack) throw new Error('refused');
        });
        await repository.holdLedger(tx.manager, [
          {
            businessUuid: business,
            itemUuid: wanted[0].itemUuid,
            period,
            at: new Date(),
            delta: -wanted[0].portions,
            reason: 'order',
            note: null,
            orderUuid: randomUUID(),
            byUuid: null,
            actor: 'guest',
          },
        ]);
        expect(seen).toBeUndefined();
      })
      .catch((error: unknown) => {
        if (!rollBack) throw error;
      });
    return seen!;
  };

  it('takes every item when all have enough, making the row of a period that has none', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await existing(a, 1);
    const outcomes = await takeAll([want(b, 4, 5), want(a, 2, 3)]);
    expect(outcomes.get(a)).toEqual({ ok: true, count: { taken: 3, adjusted: 0 } });
    expect(outcomes.get(b)).toEqual({ ok: true, count: { taken: 4, adjusted: 0 } });
    expect(await row(a)).toEqual({ taken: 3, adjusted: 0 });
    expect(await row(b)).toEqual({ taken: 4, adjusted: 0 });
  });

  it('counts a restock: an existing row may hold more than the setting’s quantity', async () => {
    const a = randomUUID();
    await existing(a, 0, 4);
    expect((await takeAll([want(a, 6, 3)])).get(a)).toEqual({
      ok: true,
      count: { taken: 6, adjusted: 4 },
    });
  });

  it('refuses an item one short with its count as it stands; the others are taken until the rollback', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await existing(a, 2);
    await existing(b, 0);
    const outcomes = await takeAll([want(a, 2, 3), want(b, 1, 3)], true);
    expect(outcomes.get(a)).toEqual({ ok: false, count: { taken: 2, adjusted: 0 } });
    expect(outcomes.get(b)).toEqual({ ok: true, count: { taken: 1, adjusted: 0 } });
    expect(await row(a)).toEqual({ taken: 2, adjusted: 0 });
    expect(await row(b)).toEqual({ taken: 0, adjusted: 0 });
  });

  it('refuses more than the quantity of a period without a row, leaving the new row holding nothing', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const outcomes = await takeAll([want(a, 3, 2), want(b, 1, 2)]);
    expect(outcomes.get(a)).toEqual({ ok: false, count: { taken: 0, adjusted: 0 } });
    expect(outcomes.get(b)).toEqual({ ok: true, count: { taken: 1, adjusted: 0 } });
    // Committed here (no rollback): the row exists, and nothing of it is taken.
    expect(await row(a)).toEqual({ taken: 0, adjusted: 0 });
  });

  it('never deadlocks orders of the same items listed in opposite orders, and counts every one', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await existing(a, 0);
    await existing(c, 0);
    // b has no row yet: the first orders race to make it.
    const orders = Array.from({ length: 20 }, (_, i) =>
      takeAll(
        i % 2
          ? [want(a, 1, 99), want(b, 1, 99), want(c, 1, 99)]
          : [want(c, 1, 99), want(b, 1, 99), want(a, 1, 99)],
      ),
    );
    const outcomes = await Promise.all(orders);
    expect(outcomes.every((taken) => [...taken.values()].every((outcome) => outcome.ok))).toBe(
      true,
    );
    for (const item of [a, b, c]) expect((await row(item)).taken).toBe(20);
  });

  /**
   * A take given the items' low thresholds, as placement makes it: how many
   * times the work ran, and whether `then` saw the outcomes.
   */
  const takeChecked = async (wanted: Array<ReturnType<typeof want>>, lowAt: number) => {
    let runs = 0;
    let seen: Map<string, { ok: boolean; count: { taken: number; adjusted: number } }> | undefined;
    await bus.transaction(async (tx) => {
      runs++;
      await repository.takeAll(
        tx.manager,
        business,
        wanted,
        async (outcomes) => void (seen = outcomes),
        new Map(wanted.map((w) => [w.itemUuid, lowAt])),
      );
    });
    return { runs, seen };
  };

  it('commits with its statement when every item is taken and none crosses a threshold; `then` has nothing to do', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await existing(a, 1);
    const taken = await takeChecked([want(a, 2, 10), want(b, 3, 10)], 2);
    expect(taken).toEqual({ runs: 1, seen: undefined });
    expect(await row(a)).toEqual({ taken: 3, adjusted: 0 });
    expect(await row(b)).toEqual({ taken: 3, adjusted: 0 });
  });

  it('runs the work again with `then` when an item is short', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await existing(a, 9);
    await existing(b, 0);
    const taken = await takeChecked([want(a, 2, 10), want(b, 1, 10)], 0);
    expect(taken.runs).toBe(2);
    expect(taken.seen?.get(a)).toEqual({ ok: false, count: { taken: 9, adjusted: 0 } });
    // No refusal thrown here, so the second run commits what it took: b once, not twice.
    expect(await row(b)).toEqual({ taken: 1, adjusted: 0 });
    expect(await row(a)).toEqual({ taken: 9, adjusted: 0 });
  });

  it('runs the work again with `then` when a take crosses the low threshold or sells out, taking once', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await existing(a, 6);
    // 10 − 6 = 4 left, low at 3: taking 1 leaves 3, a crossing.
    const low = await takeChecked([want(a, 1, 10)], 3);
    expect(low.runs).toBe(2);
    expect(low.seen?.get(a)).toEqual({ ok: true, count: { taken: 7, adjusted: 0 } });
    expect(await row(a)).toEqual({ taken: 7, adjusted: 0 });
    // The last 2 portions of a period without a row: sold out.
    const out = await takeChecked([want(b, 2, 2)], 0);
    expect(out.runs).toBe(2);
    expect(out.seen?.get(b)).toEqual({ ok: true, count: { taken: 2, adjusted: 0 } });
    // Left at 3 of 10 and low at 3: taking 1 more crosses nothing.
    expect(await takeChecked([want(a, 1, 10)], 3)).toEqual({ runs: 1, seen: undefined });
    expect(await row(a)).toEqual({ taken: 8, adjusted: 0 });
  });
});
