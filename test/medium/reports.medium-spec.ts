import { randomUUID } from 'node:crypto';
import { OrderRepository } from '../../src/order/order.repository';
import { ExportRepository } from '../../src/report/export.repository';
import { PaymentChannelsRepository } from '../../src/report/payment-channels.repository';
import { ReportRepository } from '../../src/report/report.repository';
import { ReportRange } from '../../src/report/report-range';
import { createMediumContext, MediumContext } from '../support/medium';
import { newEntity, newUser } from '../support/medium-factory';
import { newOrderFields, orderLine } from '../support/medium-orders';

/**
 * The report repositories on a real database, no HTTP: the rollups answer
 * exactly what the orders themselves answer (the reference), for figures
 * and top items, and the export reads every order of the period in batches.
 */
describe('report repositories (medium)', () => {
  let ctx: MediumContext;
  let reports: ReportRepository;
  let business: string;
  let range: ReportRange;
  const placed: string[] = [];

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [ReportRepository, PaymentChannelsRepository, ExportRepository, OrderRepository],
    });
    reports = ctx.get(ReportRepository);
    const owner = await newUser(ctx);
    business = (
      await newEntity(ctx, 'business', owner.uuid, {
        extraData: { opening_hours: { time_zone: 'Africa/Lagos' } },
      })
    ).uuid;
    const orders = ctx.get(OrderRepository);
    for (const [i, fulfilmentType] of (['pickup', 'delivery', 'pickup'] as const).entries()) {
      const { order } = await orders.insertPlacedOrder(
        ctx.dataSource.manager,
        newOrderFields(owner.uuid, business, { fulfilmentType }),
        [orderLine(0), orderLine(1)].slice(0, i + 1),
        'guest',
      );
      placed.push(order.uuid);
      // Two completed orders count as sales; the third stays open.
      if (i < 2)
        await orders.updateOrder(ctx.dataSource.manager, order.uuid, { status: 'completed' });
    }
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(today > yesterday).toBe(true);
    range = { from: yesterday, to: tomorrow, days: 3 };
  });
  afterAll(() => ctx?.close());

  it("reads a business's extra_data, and nothing for another record", async () => {
    expect(await reports.businessExtraData(business)).toEqual({
      opening_hours: { time_zone: 'Africa/Lagos' },
    });
    expect(await reports.businessExtraData(randomUUID())).toBeNull();
  });

  it.each(['day', 'hour', 'weekday', 'month'] as const)(
    'figures by %s from the rollups equal the figures from the orders',
    async (groupBy) => {
      const fromRollups = await reports.sales(business, range, groupBy, 'Africa/Lagos');
      const fromOrders = await reports.sales(business, range, groupBy, 'Africa/Lagos', true);
      // The service reads the figures by grouping and key; their row order is not part of the answer.
      const sorted = (figures: typeof fromOrders.figures) =>
        [...figures].sort((a, b) =>
          `${a.grouping}/${a.key}`.localeCompare(`${b.grouping}/${b.key}`),
        );
      expect(fromRollups.buckets).toEqual(fromOrders.buckets);
      expect(sorted(fromRollups.figures)).toEqual(sorted(fromOrders.figures));
      const total = fromOrders.figures.find((row) => row.grouping === 'total');
      expect([Number(total?.orders), Number(total?.open_orders)]).toEqual([2, 1]);
    },
  );

  it('top items from the rollups equal the top items from the orders', async () => {
    const fromRollups = await reports.items(business, range, 10, 'Africa/Lagos');
    const fromOrders = await reports.items(business, range, 10, 'Africa/Lagos', true);
    expect(fromRollups).toEqual(fromOrders);
    expect(fromOrders.length).toBeGreaterThan(0);
  });

  it('answers no payment channel for a period whose orders recorded no payment', async () => {
    const rows = await ctx
      .get(PaymentChannelsRepository)
      .byChannel(business, range, 'Africa/Lagos');
    expect(rows).toEqual([]);
  });

  it('the export reads every order of the period, batch by batch', async () => {
    const seen: unknown[] = [];
    for await (const batch of ctx
      .get(ExportRepository)
      .batches(business, range, 'Africa/Lagos', true)) {
      seen.push(batch);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(JSON.stringify(seen)).toContain(placed[0]);
  });
});
