import { randomUUID } from 'node:crypto';
import { EventBus } from '../../src/database/event-bus';
import { ApiError } from '../../src/http/api-error';
import { StockModule, StockService } from '../../src/stock';
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
