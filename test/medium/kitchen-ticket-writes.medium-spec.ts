import { EventBus } from '../../src/database/event-bus';
import { KitchenRepository } from '../../src/kitchen/kitchen.repository';
import {
  NewStationTicket,
  TicketWritesRepository,
} from '../../src/kitchen/ticket-writes.repository';
import { OrderRepository, OrderStatusMoves } from '../../src/order';
import { MediumContext } from '../support/medium';
import { KitchenFixture, startKitchenFixture } from './kitchen-fixture';
import { MediumEntity, MediumUser, newEntity } from '../support/medium-factory';
import { newStationTicket, ticketLine } from '../support/medium-kitchen';

/**
 * The writes of a set of tickets on a real database, no HTTP: every
 * station's ticket and lines in one statement after the business's lock,
 * versions in the order given, nothing written or answered for a ticket
 * that exists, one set among simultaneous writers, and a cancellation's
 * void tickets in the same statement as its cancellations.
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

  it('writes every station’s ticket and its lines with one lock and one statement, versions in the order given; a second call writes and answers nothing', async () => {
    const shop = await newEntity(ctx, 'business', owner.uuid);
    const order = await placeOrder(shop.uuid);
    const earlier = await placeOrder(shop.uuid);
    await bus.transaction((tx) =>
      writes.writeTickets(tx.manager, shop.uuid, [
        newStationTicket(earlier.uuid, 'grill', [ticketLine(0)]),
      ]),
    );
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
      return writes.writeTickets(tx.manager, shop.uuid, set);
    });
    expect(statements).toHaveLength(2);
    expect(statements[0]).toContain('pg_advisory_xact_lock');
    expect(
      written.map((t) => [t.businessUuid, t.station, t.version, t.lines.map((l) => l.position)]),
    ).toEqual([
      [shop.uuid, 'grill', '2', [0, 3]],
      [shop.uuid, 'bar', '3', [1]],
      [shop.uuid, 'pastry', '4', [2, 4]],
    ]);
    expect(written[0].lines[0]).toMatchObject({
      ticketUuid: written[0].uuid,
      titleName: 'Dish 0',
      options: [],
      quantity: 1,
      allergens: ['nuts'],
      status: 'queued',
    });
    // The answer is what is stored.
    const stored = await kitchen.ticketsOfOrder(order.uuid);
    expect(
      [...stored]
        .sort((a, b) => Number(a.version) - Number(b.version))
        .map((t) => ({
          ...t,
          createdAt: new Date(t.createdAt).toISOString(),
          updatedAt: new Date(t.updatedAt).toISOString(),
        })),
    ).toEqual(
      written.map((t) => ({
        ...t,
        createdAt: new Date(t.createdAt).toISOString(),
        updatedAt: new Date(t.updatedAt).toISOString(),
      })),
    );

    // Again, and one more station: only the new station is written and answered.
    const again = await bus.transaction((tx) =>
      writes.writeTickets(tx.manager, shop.uuid, [
        ...set,
        newStationTicket(order.uuid, 'cold', [ticketLine(5)]),
      ]),
    );
    expect(again.map((t) => [t.station, t.lines.map((l) => l.position)])).toEqual([['cold', [5]]]);
    // The same set once more: nothing written, nothing answered.
    expect(await bus.transaction((tx) => writes.writeTickets(tx.manager, shop.uuid, set))).toEqual(
      [],
    );
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
      Array.from({ length: 20 }, () =>
        bus.transaction((tx) => writes.writeTickets(tx.manager, shop.uuid, set)),
      ),
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
          .map((t) => [t.station, [t.status, Number(BigInt(t.version) - before), t.lines.length]]),
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
});
