import { randomUUID } from 'node:crypto';
import { NewOrder } from '../../src/order/order-placement.statement';
import { OrderRepository } from '../../src/order/order.repository';
import { AcceptanceDeadlineRepository } from '../../src/pace/acceptance-deadline.repository';
import { AvailabilityRepository } from '../../src/pace/availability.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, newEntity, newUser } from '../support/medium-factory';
import { newOrderFields, orderLine } from '../support/medium-orders';
import { serverOnly } from '../support/server-only';

/**
 * The pace's repositories on a real database, no HTTP: the deadline's query
 * (only pending orders past their deadline, the longest overdue first, read
 * from the business's and the menu's settings as stored), the claim a second
 * worker cannot take, and the record of availability changes.
 */
describe('pace repositories (medium)', () => {
  let ctx: MediumContext;
  let deadlines: AcceptanceDeadlineRepository;
  let availability: AvailabilityRepository;
  let orders: OrderRepository;
  let owner: string;

  beforeAll(async () => {
    ctx = await createMediumContext({
      providers: [AcceptanceDeadlineRepository, AvailabilityRepository, OrderRepository],
    });
    deadlines = ctx.get(AcceptanceDeadlineRepository);
    availability = ctx.get(AvailabilityRepository);
    orders = ctx.get(OrderRepository);
    owner = (await newUser(ctx)).uuid;
  });
  afterAll(() => ctx?.close());

  const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

  async function businessWithMenu(deadline: unknown, prepTime?: unknown) {
    const business = await newEntity(ctx, 'business', owner, {
      extraData: deadline === undefined ? {} : { acceptance_deadline_minutes: deadline },
    });
    const menu = await newEntity(ctx, 'business_menu', owner, {
      parent: business,
      extraData: prepTime === undefined ? {} : { fulfilment: { prep_time_minutes: prepTime } },
    });
    return { business, menu };
  }

  /** A pending order placed at `createdAt`, for `requestedTime` when given. */
  async function placed(
    at: { business: MediumEntity; menu: MediumEntity },
    createdAt: Date,
    overrides: Partial<NewOrder> = {},
  ): Promise<string> {
    const { order } = await orders.insertPlacedOrder(
      ctx.dataSource.manager,
      newOrderFields(owner, at.business.uuid, { menuUuid: at.menu.uuid, ...overrides }),
      [orderLine(0)],
      'guest',
    );
    await ctx.sql('UPDATE orders SET created_at = $1 WHERE uuid = $2', [createdAt, order.uuid]);
    return order.uuid;
  }

  it('answers only the pending orders past their deadline, the longest overdue first', async () => {
    const now = new Date();
    const tenMinutes = await businessWithMenu(10, 20);
    const overdue20 = await placed(tenMinutes, minutesAgo(now, 30));
    const overdue5 = await placed(tenMinutes, minutesAgo(now, 15));
    const notYet = await placed(tenMinutes, minutesAgo(now, 5));
    // For later: due at its requested time minus the menu's 20 minutes of prep.
    const laterOverdue10 = await placed(tenMinutes, minutesAgo(now, 1), {
      requestedTime: new Date(now.getTime() + 10 * 60_000),
    });
    const laterNotYet = await placed(tenMinutes, minutesAgo(now, 60), {
      requestedTime: new Date(now.getTime() + 30 * 60_000),
    });
    const accepted = await placed(tenMinutes, minutesAgo(now, 60));
    await ctx.sql(`UPDATE orders SET status = 'accepted' WHERE uuid = $1`, [accepted]);
    // Settings written by hand: a string of digits counts, anything else means none.
    const asString = await placed(await businessWithMenu(' 15 '), minutesAgo(now, 16));
    const noSetting = await placed(await businessWithMenu(undefined), minutesAgo(now, 600));
    const notMinutes = await placed(await businessWithMenu('soon'), minutesAgo(now, 600));
    const tooLong = await placed(await businessWithMenu(241), minutesAgo(now, 600));
    const fraction = await placed(await businessWithMenu(2.5), minutesAgo(now, 600));

    const mine = new Set([
      overdue20,
      overdue5,
      notYet,
      laterOverdue10,
      laterNotYet,
      accepted,
      asString,
      noSetting,
      notMinutes,
      tooLong,
      fraction,
    ]);
    const due = (await deadlines.candidates(now, 100)).filter((row) => mine.has(row.uuid));
    expect(due.map((row) => row.uuid)).toEqual([overdue20, laterOverdue10, overdue5, asString]);
    expect(due[0]).toMatchObject({ deadlineMinutes: 10, fulfilment: { prep_time_minutes: 20 } });
    expect(due[0].createdAt).toEqual(minutesAgo(now, 30));
    expect(due[1].requestedTime).toEqual(new Date(now.getTime() + 10 * 60_000));

    // The limit keeps the longest overdue.
    const first = await deadlines.candidates(now, 1);
    expect(first).toHaveLength(1);
    expect(first[0].uuid).toBe(overdue20);
  });

  it('claims an order in one transaction only, and again once that one ended', async () => {
    const orderUuid = randomUUID();
    // One connection (the embedded database): the claim holds for its own transaction again.
    await ctx.dataSource.transaction(async (manager) => {
      expect(await deadlines.claim(manager, orderUuid)).toBe(true);
      expect(await deadlines.claim(manager, orderUuid)).toBe(true);
    });
    expect(await ctx.dataSource.transaction((manager) => deadlines.claim(manager, orderUuid))).toBe(
      true,
    );
  });

  serverOnly('skips an order a second worker’s transaction has claimed', async () => {
    const orderUuid = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let claimed!: () => void;
    const firstClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const first = ctx.dataSource.transaction(async (manager) => {
      const taken = await deadlines.claim(manager, orderUuid);
      claimed();
      await held;
      return taken;
    });
    await firstClaimed;
    const second = await ctx.dataSource.transaction((manager) =>
      deadlines.claim(manager, orderUuid),
    );
    const other = await ctx.dataSource.transaction((manager) =>
      deadlines.claim(manager, randomUUID()),
    );
    release();
    expect(await first).toBe(true);
    expect(second).toBe(false);
    expect(other).toBe(true);
    // Released with the first transaction's end.
    expect(await ctx.dataSource.transaction((manager) => deadlines.claim(manager, orderUuid))).toBe(
      true,
    );
  });

  it('keeps every availability change and answers the newest of the business', async () => {
    const business = randomUUID();
    const member = randomUUID();
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 12, minutes));
    expect(await availability.latest(business)).toBeUndefined();
    const changes = [
      { mode: 'busy', extraPrepMinutes: 15, until: at(45), changedAt: at(0) },
      { mode: 'paused', extraPrepMinutes: null, until: null, changedAt: at(20) },
      { mode: 'open', extraPrepMinutes: null, until: null, changedAt: at(10) },
    ];
    for (const change of changes) {
      await availability.record(ctx.dataSource.manager, {
        ...change,
        businessUuid: business,
        changedBy: member,
      });
    }
    // Another business's newer change is not this one's.
    await availability.record(ctx.dataSource.manager, {
      mode: 'open',
      extraPrepMinutes: null,
      until: null,
      businessUuid: randomUUID(),
      changedBy: member,
      changedAt: at(50),
    });
    expect(await availability.latest(business)).toMatchObject({
      mode: 'paused',
      changedBy: member,
      changedAt: at(20),
    });
    const rows = await ctx.sql<{ mode: string; extra_prep_minutes: number | null }>(
      `SELECT mode, extra_prep_minutes FROM business_availability_changes
       WHERE business_uuid = $1 ORDER BY changed_at`,
      [business],
    );
    expect(rows).toEqual([
      { mode: 'busy', extra_prep_minutes: 15 },
      { mode: 'open', extra_prep_minutes: null },
      { mode: 'paused', extra_prep_minutes: null },
    ]);

    // A change that rolls back with its transaction leaves no record.
    await ctx.dataSource
      .transaction(async (manager) => {
        await availability.record(manager, {
          mode: 'busy',
          extraPrepMinutes: 30,
          until: null,
          businessUuid: business,
          changedBy: member,
          changedAt: at(59),
        });
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await availability.latest(business))?.mode).toBe('paused');
  });
});
