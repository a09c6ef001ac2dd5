import { EventBus } from '../../src/database/event-bus';
import { KitchenRepository } from '../../src/kitchen/kitchen.repository';
import {
  NewStationTicket,
  TicketWritesRepository,
} from '../../src/kitchen/ticket-writes.repository';
import { OrderRepository, OrderStatusMoves } from '../../src/order';
import { KitchenTicketVersionAtCommit1795900200000 } from '../../migrations/1795900200000-KitchenTicketVersionAtCommit';
import { MediumContext } from '../support/medium';
import { KitchenFixture, startKitchenFixture } from './kitchen-fixture';
import { MediumEntity, MediumUser, newEntity } from '../support/medium-factory';
import { newStationTicket, ticketLine } from '../support/medium-kitchen';

/**
 * The writes of a set of tickets on a real database, no HTTP: every
 * station's ticket and lines in one statement, their versions in the order
 * given in one more (the business's row of versions locked to the commit), nothing written
 * or answered for a ticket that exists, one set among simultaneous
 * writers, and a cancellation's void tickets in the same statement as its
 * cancellations.
 */
// R84: tickets with the acceptance. R86: void tickets on cancellation.
describe('kitchen: writing a set of tickets (medium)', () => {
  let ctx: MediumContext;
  let kitchen: KitchenRepository;
  let writes: TicketWritesRepository;
  let orders: OrderRepository;
  let moves: OrderStatusMoves;
  let bus: EventBus;
  let owner: MediumUser;
  let business: MediumEntity;
  let placeOrder: KitchenFixture['placeOrder'];
  let accept: KitchenFixture['accept'];

  beforeAll(async () => {
    ({ ctx, kitchen, writes, orders, moves, bus, owner, business, placeOrder, accept } =
      await startKitchenFixture());
  });
  afterAll(() => ctx?.close());

  /** Writes a set and numbers what was written, as the service does, in one transaction. */
  const writeAndNumber = (businessUuid: string, set: readonly NewStationTicket[]) =>
    bus.transaction(async (tx) => {
      const written = await writes.writeTickets(tx.manager, businessUuid, set);
      await writes.numberTickets(
        tx.manager,
        businessUuid,
        written.map((t) => t.uuid),
      );
      return written;
    });

  it('writes every station’s ticket and its lines in one statement, then their versions in the order given in one more; a second call writes and answers nothing', async () => {
    const shop = await newEntity(ctx, 'business', owner.uuid);
    const order = await placeOrder(shop.uuid);
    const earlier = await placeOrder(shop.uuid);
    await writeAndNumber(shop.uuid, [newStationTicket(earlier.uuid, 'grill', [ticketLine(0)])]);
    const set: NewStationTicket[] = [
      newStationTicket(order.uuid, 'grill', [ticketLine(3), ticketLine(0)]),
      newStationTicket(order.uuid, 'bar', [ticketLine(1)]),
      newStationTicket(order.uuid, 'pastry', [ticketLine(2), ticketLine(4)]),
    ];
    const statements: string[] = [];
    const written = await bus.transaction(async (tx) => {
      const query = tx.manager.query.bind(tx.manager);
      tx.manager.query = ((text: string, params?: unknown[]) => {
        statements.push(text);
        return query(text, params);
      }) as typeof tx.manager.query;
      const answer = await writes.writeTickets(tx.manager, shop.uuid, set);
      expect(statements).toHaveLength(1);
      // Not numbered yet: the version is given just before the commit.
      expect(answer.map((t) => t.version)).toEqual([null, null, null]);
      await writes.numberTickets(
        tx.manager,
        shop.uuid,
        answer.map((t) => t.uuid),
      );
      return answer;
    });
    // The versions in one statement that takes them from the business's row of versions.
    expect(statements).toHaveLength(2);
    expect(statements[1]).toContain('kitchen_ticket_versions');
    expect(written.map((t) => [t.businessUuid, t.station, t.lines.map((l) => l.position)])).toEqual(
      [
        [shop.uuid, 'grill', [0, 3]],
        [shop.uuid, 'bar', [1]],
        [shop.uuid, 'pastry', [2, 4]],
      ],
    );
    const numbered = await kitchen.ticketsOfOrder(order.uuid);
    expect(new Map(numbered.map((t) => [t.station, t.version]))).toEqual(
      new Map([
        ['grill', '2'],
        ['bar', '3'],
        ['pastry', '4'],
      ]),
    );
    expect(written[0].lines[0]).toMatchObject({
      ticketUuid: written[0].uuid,
      titleName: 'Dish 0',
      options: [],
      quantity: 1,
      allergens: ['nuts'],
      status: 'queued',
    });
    // The answer is what is stored, but for the version given after it.
    const stored = await kitchen.ticketsOfOrder(order.uuid);
    expect(
      [...stored]
        .sort((a, b) => Number(a.version) - Number(b.version))
        .map(({ version: _v, updatedAt: _u, ...t }) => ({
          ...t,
          createdAt: new Date(t.createdAt).toISOString(),
        })),
    ).toEqual(
      written.map(({ version: _v, updatedAt: _u, ...t }) => ({
        ...t,
        createdAt: new Date(t.createdAt).toISOString(),
      })),
    );

    // Again, and one more station: only the new station is written and answered.
    const again = await writeAndNumber(shop.uuid, [
      ...set,
      newStationTicket(order.uuid, 'cold', [ticketLine(5)]),
    ]);
    expect(again.map((t) => [t.station, t.lines.map((l) => l.position)])).toEqual([['cold', [5]]]);
    // The same set once more: nothing written, nothing answered.
    expect(await writeAndNumber(shop.uuid, set)).toEqual([]);
    const [counts] = await ctx.sql<{ tickets: number; lines: number }>(
      `SELECT count(DISTINCT t.uuid)::int AS tickets, count(l.uuid)::int AS lines
         FROM kitchen_tickets t JOIN kitchen_ticket_lines l ON l.ticket_uuid = t.uuid
         WHERE t.order_uuid = $1`,
      [order.uuid],
    );
    expect(counts).toEqual({ tickets: 4, lines: 6 });
  });

  it('writes one set among 20 simultaneous writers of it, every version of the business once', async () => {
    const shop = await newEntity(ctx, 'business', owner.uuid);
    const order = await placeOrder(shop.uuid);
    const set = (['grill', 'bar', 'pastry'] as const).map((station, i) =>
      newStationTicket(order.uuid, station, [ticketLine(i)]),
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => writeAndNumber(shop.uuid, set)),
    );
    expect(answers.filter((answer) => answer.length > 0)).toHaveLength(1);
    expect(answers.flat().map((t) => t.station)).toEqual(['grill', 'bar', 'pastry']);
    const rows = await ctx.sql<{ version: string; lines: number }>(
      `SELECT t.version::text AS version, count(l.uuid)::int AS lines
         FROM kitchen_tickets t JOIN kitchen_ticket_lines l ON l.ticket_uuid = t.uuid
         WHERE t.business_uuid = $1 GROUP BY t.uuid ORDER BY t.version`,
      [shop.uuid],
    );
    expect(rows).toEqual([
      { version: '1', lines: 1 },
      { version: '2', lines: 1 },
      { version: '3', lines: 1 },
    ]);
  });

  it('cancels tickets and writes their void tickets in the same statement, the cancellations’ versions first', async () => {
    const order = await placeOrder();
    await accept(order.uuid);
    const latest = async () =>
      (
        await ctx.sql<{ v: string }>(
          'SELECT max(version)::text AS v FROM kitchen_tickets WHERE business_uuid = $1',
          [business.uuid],
        )
      )[0].v;
    const before = BigInt(await latest());
    await bus.transaction(async (tx) => {
      const accepted = (await orders.findForUpdate(tx.manager, order.uuid))!;
      await moves.move(tx, accepted, 'cancelled', { actor: 'owner', userUuid: owner.uuid });
    });
    const tickets = await kitchen.ticketsOfOrder(order.uuid);
    const of = (kind: string) =>
      new Map(
        tickets
          .filter((t) => t.kind === kind)
          .map((t) => [t.station, [t.status, Number(BigInt(t.version!) - before), t.lines.length]]),
      );
    const cancelled = of('new');
    const voids = of('void');
    // Every cancellation takes a version, then every void ticket, in the same order.
    expect([...cancelled.values()].map(([status]) => status)).toEqual(['cancelled', 'cancelled']);
    expect([...cancelled.values()].map(([, v]) => v).sort()).toEqual([1, 2]);
    for (const station of ['grill', 'bar']) {
      const [status, version, lines] = voids.get(station)!;
      expect([status, version, lines]).toEqual([
        'queued',
        (cancelled.get(station)![1] as number) + 2,
        station === 'grill' ? 2 : 1,
      ]);
    }
    expect(BigInt(await latest()) - before).toBe(4n);
  });

  it('goes on after the versions a business’s tickets had when its row of versions was made by the migration', async () => {
    const shop = await newEntity(ctx, 'business', owner.uuid);
    const first = await placeOrder(shop.uuid);
    await writeAndNumber(shop.uuid, [
      newStationTicket(first.uuid, 'grill', [ticketLine(0)]),
      newStationTicket(first.uuid, 'bar', [ticketLine(1)]),
    ]);
    // The schema before the row of versions, its tickets kept; then the migration again.
    const migration = new KitchenTicketVersionAtCommit1795900200000();
    const runner = ctx.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const second = await placeOrder(shop.uuid);
    await writeAndNumber(shop.uuid, [newStationTicket(second.uuid, 'grill', [ticketLine(0)])]);
    const rows = await ctx.sql<{ version: string }>(
      'SELECT version::text AS version FROM kitchen_tickets WHERE business_uuid = $1 ORDER BY version',
      [shop.uuid],
    );
    expect(rows.map((row) => row.version)).toEqual(['1', '2', '3']);
  });
});
