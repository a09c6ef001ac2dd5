import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { formatUnits, splitEqually, toUnits } from '../../src/order/tabs/domain/bill-split';
import { NewTab, TabRepository } from '../../src/order/tabs/tab.repository';
import { AccountModule } from '../../src/account';
import { AuthModule } from '../../src/auth/auth.module';
import { MailModule } from '../../src/mail/mail.module';
import { OrderModule } from '../../src/order';
import { OrderRepository } from '../../src/order/order.repository';
import { TabsService } from '../../src/order/tabs/tabs.service';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumUser, newEntity, newUser } from '../support/medium-factory';
import { newOrderFields, orderLine } from '../support/medium-orders';

/**
 * The tabs' repository on a real database, no HTTP: one tab of a table that
 * is not closed whatever the number of first rounds at once (the partial
 * unique index), and a split that replaces the unpaid shares only, its
 * shares summing to the amount due exactly.
 */
describe('tab repository (medium)', () => {
  let ctx: MediumContext;
  let tabs: TabRepository;
  let dataSource: DataSource;
  const businessUuid = randomUUID();
  const ownerUuid = randomUUID();

  beforeAll(async () => {
    ctx = await createMediumContext({ providers: [TabRepository] });
    tabs = ctx.get(TabRepository);
    dataSource = ctx.dataSource;
  });
  afterAll(() => ctx?.close());

  const newTab = (menuUuid: string, table: string): NewTab => ({
    businessUuid,
    menuUuid,
    ownerUuid,
    table,
    currency: 'NGN',
    openedBy: null,
  });

  it('opens one tab of a table among simultaneous first rounds, and all of them find it', async () => {
    const menuUuid = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        dataSource.transaction((manager) => tabs.openOrFind(manager, newTab(menuUuid, 'table_7'))),
      ),
    );
    expect(results.filter((result) => result.opened)).toHaveLength(1);
    expect(new Set(results.map((result) => result.tab.uuid)).size).toBe(1);
    const rows = await ctx.sql('SELECT uuid FROM tabs WHERE menu_uuid = $1', [menuUuid]);
    expect(rows).toHaveLength(1);

    // Another table of the same menu, and the same table of another menu, have tabs of their own.
    const otherTable = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(menuUuid, 'table_8')),
    );
    const otherMenu = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(randomUUID(), 'table_7')),
    );
    expect(otherTable.opened).toBe(true);
    expect(otherMenu.opened).toBe(true);
  });

  it('opens and finds tabs on one connection past the runs PostgreSQL plans for their values', async () => {
    // From its sixth run a named statement may run a kept (generic) plan: the
    // partial index's predicate must still match the ON CONFLICT clause.
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      const menuUuid = randomUUID();
      const opened: boolean[] = [];
      for (let i = 0; i < 8; i++) {
        opened.push((await tabs.openOrFind(runner.manager, newTab(menuUuid, `t${i % 4}`))).opened);
      }
      expect(opened).toEqual([true, true, true, true, false, false, false, false]);
      const [prepared] = (await runner.query(
        `SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements
          WHERE statement LIKE 'insert into "tabs"%'`,
      )) as Array<{ runs: string }>;
      expect(Number(prepared.runs)).toBeGreaterThanOrEqual(6);
    } finally {
      await runner.release();
    }
  });

  it('finds a settling tab rather than opening a second, and opens a new one once it closed', async () => {
    const menuUuid = randomUUID();
    const first = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(menuUuid, 'terrace')),
    );
    await dataSource.transaction((manager) =>
      tabs.setStatus(manager, first.tab.uuid, { status: 'settling' }),
    );
    const again = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(menuUuid, 'terrace')),
    );
    expect(again).toMatchObject({
      opened: false,
      tab: { uuid: first.tab.uuid, status: 'settling' },
    });

    await dataSource.transaction((manager) =>
      tabs.setStatus(manager, first.tab.uuid, {
        status: 'closed',
        closedAt: new Date(),
        closedByRole: 'system',
      }),
    );
    const next = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(menuUuid, 'terrace')),
    );
    expect(next.opened).toBe(true);
    expect(next.tab.uuid).not.toBe(first.tab.uuid);
    const rows = await ctx.sql<{ status: string }>(
      'SELECT status FROM tabs WHERE menu_uuid = $1 ORDER BY opened_at',
      [menuUuid],
    );
    expect(rows.map((row) => row.status).sort()).toEqual(['closed', 'open']);
  });

  it('stores an equal split whose shares sum to the amount due to the kobo', async () => {
    const { tab } = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(randomUUID(), 'table_1')),
    );
    const due = toUnits('100.00');
    const amounts = splitEqually(due, 3);
    await dataSource.transaction((manager) =>
      tabs.replaceUnpaidShares(
        manager,
        tab.uuid,
        amounts.map((units, index) => ({
          position: index + 1,
          amount: formatUnits(units),
          splitBy: 'equal',
          lines: null,
        })),
      ),
    );
    const shares = await tabs.sharesOf([tab.uuid]);
    expect(shares.map((share) => share.amount)).toEqual(['33.34', '33.33', '33.33']);
    const [{ total }] = await ctx.sql<{ total: string }>(
      'SELECT sum(amount)::text AS total FROM tab_shares WHERE tab_uuid = $1',
      [tab.uuid],
    );
    expect(total).toBe('100.00');
  });

  it('replaces the unpaid shares of a new split only, keeping the paid ones and numbering on', async () => {
    const { tab } = await dataSource.transaction((manager) =>
      tabs.openOrFind(manager, newTab(randomUUID(), 'table_2')),
    );
    const share = (amount: string) => ({ position: 0, amount, splitBy: 'amount', lines: null });
    await dataSource.transaction((manager) =>
      tabs.replaceUnpaidShares(manager, tab.uuid, [share('30.00'), share('70.00')]),
    );
    const [paid, unpaid] = await tabs.sharesOf([tab.uuid]);
    expect([paid.position, unpaid.position]).toEqual([1, 2]);
    await dataSource.transaction((manager) => tabs.markSharePaid(manager, paid.uuid));

    // The 70.00 still owed is split in two by items.
    const lines = [{ order_uuid: randomUUID(), line_uuid: randomUUID(), quantity: 1 }];
    await dataSource.transaction((manager) =>
      tabs.replaceUnpaidShares(manager, tab.uuid, [
        { position: 0, amount: '35.00', splitBy: 'items', lines },
        { position: 0, amount: '35.00', splitBy: 'items', lines: null },
      ]),
    );
    const now = await tabs.sharesOf([tab.uuid]);
    expect(now.map((row) => [row.position, row.amount, row.status, row.splitBy])).toEqual([
      [1, '30.00', 'paid', 'amount'],
      [3, '35.00', 'unpaid', 'items'],
      [4, '35.00', 'unpaid', 'items'],
    ]);
    expect(now[1].lines).toEqual(lines);

    const stored = await ctx.sql<{ uuid: string; status: string }>(
      'SELECT uuid, status FROM tab_shares WHERE tab_uuid = $1 ORDER BY position',
      [tab.uuid],
    );
    expect(stored.map((row) => row.status)).toEqual(['paid', 'replaced', 'unpaid', 'unpaid']);
    // A replaced share is no longer the tab's to pay, though its record stays.
    await dataSource.transaction(async (manager) => {
      expect(await tabs.findShare(manager, tab.uuid, unpaid.uuid)).toBeNull();
      expect(await tabs.findShareByUuid(manager, unpaid.uuid)).toMatchObject({
        status: 'replaced',
      });
      expect(await tabs.findShare(manager, randomUUID(), paid.uuid)).toBeNull();
    });
    const [{ owed }] = await ctx.sql<{ owed: string }>(
      `SELECT sum(amount)::text AS owed FROM tab_shares WHERE tab_uuid = $1 AND status <> 'replaced'`,
      [tab.uuid],
    );
    expect(owed).toBe('100.00');
  });

  it('lists a business’s tabs newest first, by status, at most the limit', async () => {
    const business = randomUUID();
    const opened: string[] = [];
    for (const table of ['a', 'b', 'c']) {
      const { tab } = await dataSource.transaction((manager) =>
        tabs.openOrFind(manager, { ...newTab(randomUUID(), table), businessUuid: business }),
      );
      opened.push(tab.uuid);
      await ctx.sql(
        `UPDATE tabs SET opened_at = now() + ($1 || ' minutes')::interval WHERE uuid = $2`,
        [String(opened.length), tab.uuid],
      );
    }
    await dataSource.transaction((manager) =>
      tabs.setStatus(manager, opened[1], { status: 'settling' }),
    );
    expect((await tabs.listForBusiness(business, undefined, 10)).map((t) => t.uuid)).toEqual(
      [...opened].reverse(),
    );
    expect((await tabs.listForBusiness(business, 'open', 10)).map((t) => t.uuid)).toEqual([
      opened[2],
      opened[0],
    ]);
    expect(await tabs.listForBusiness(business, undefined, 1)).toHaveLength(1);
  });
});

/**
 * The tabs' service with its module on a real database: a split is taken
 * under the tab's lock, so splits at once leave one set of unpaid shares,
 * and every set sums to what the rounds still owe.
 */
describe('tab splits through the service (medium)', () => {
  let ctx: MediumContext;
  let service: TabsService;
  let tabs: TabRepository;
  let orders: OrderRepository;
  let owner: MediumUser;

  beforeAll(async () => {
    ctx = await createMediumContext({
      // The order module reaches the team's access policy, which reaches accounts and mail.
      imports: [AuthModule.forRoot(AccountModule), MailModule, OrderModule],
    });
    service = ctx.get(TabsService);
    tabs = ctx.get(TabRepository);
    orders = ctx.get(OrderRepository);
    owner = await newUser(ctx);
  });
  afterAll(() => ctx?.close());

  /** A tab of rounds costing `amounts`, each on the tab. */
  async function tabWithRounds(amounts: string[]) {
    const business = await newEntity(ctx, 'business', owner.uuid);
    const menu = await newEntity(ctx, 'business_menu', owner.uuid, { parent: business });
    const { tab } = await ctx.dataSource.transaction((manager) =>
      tabs.openOrFind(manager, {
        businessUuid: business.uuid,
        menuUuid: menu.uuid,
        ownerUuid: owner.uuid,
        table: 'table_3',
        currency: 'NGN',
        openedBy: null,
      }),
    );
    for (const amount of amounts) {
      await orders.insertPlacedOrder(
        ctx.dataSource.manager,
        newOrderFields(owner.uuid, business.uuid, {
          menuUuid: menu.uuid,
          amount,
          tabUuid: tab.uuid,
          paymentStatus: 'on_tab',
        }),
        [orderLine(0)],
        'guest',
      );
    }
    return tab;
  }

  const owed = async (tabUuid: string) =>
    (
      await ctx.sql<{ owed: string | null; shares: number }>(
        `SELECT sum(amount)::text AS owed, count(*)::int AS shares FROM tab_shares
         WHERE tab_uuid = $1 AND status = 'unpaid'`,
        [tabUuid],
      )
    )[0];

  it('splits what the rounds owe into shares that sum to it exactly', async () => {
    const tab = await tabWithRounds(['40.00', '60.01']);
    await service.splitByStaff({ uuid: owner.uuid }, tab.uuid, { by: 'equal', parts: 3 } as never);
    expect(await owed(tab.uuid)).toEqual({ owed: '100.01', shares: 3 });
    expect((await tabs.find(tab.uuid))?.status).toBe('settling');

    // One share is paid; the next split shares out only what is still owed.
    const [first] = await tabs.sharesOf([tab.uuid]);
    await ctx.dataSource.transaction((manager) => tabs.markSharePaid(manager, first.uuid));
    const left = (100.01 * 100 - toUnits(first.amount)) / 100;
    await service.splitByStaff({ uuid: owner.uuid }, tab.uuid, { by: 'equal', parts: 2 } as never);
    expect(await owed(tab.uuid)).toEqual({ owed: left.toFixed(2), shares: 2 });
    expect((await tabs.sharesOf([tab.uuid])).map((share) => share.status)).toEqual([
      'paid',
      'unpaid',
      'unpaid',
    ]);
  });

  it('leaves one set of unpaid shares when splits of one tab run at once', async () => {
    const tab = await tabWithRounds(['30.00', '20.00']);
    const results = await Promise.allSettled(
      [2, 3, 4, 5].map((parts) =>
        service.splitByStaff({ uuid: owner.uuid }, tab.uuid, { by: 'equal', parts } as never),
      ),
    );
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    const { owed: total, shares } = await owed(tab.uuid);
    expect(total).toBe('50.00');
    expect([2, 3, 4, 5]).toContain(shares);
  });
});
