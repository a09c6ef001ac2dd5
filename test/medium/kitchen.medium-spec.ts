import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { EventBus } from '../../src/database/event-bus';
import { ApiError } from '../../src/http/api-error';
import { KitchenRepository } from '../../src/kitchen/kitchen.repository';
import { TicketWritesRepository } from '../../src/kitchen/ticket-writes.repository';
import { KitchenService } from '../../src/kitchen/kitchen.service';
import { OrderRepository } from '../../src/order';
import { MediumContext } from '../support/medium';
import { KitchenFixture, startKitchenFixture } from './kitchen-fixture';
import { MediumEntity, MediumUser, newEntity, newUser } from '../support/medium-factory';
import { newStationTicket, ticketLine } from '../support/medium-kitchen';
import { serverOnly } from '../support/server-only';

/**
 * The kitchen's repository and service on a real database, no HTTP: one
 * ticket per (order, station, kind) however the acceptance is raced, the
 * business's versions for the `since` cursor, the list read from one
 * snapshot, and a line moved one step at a time under the order's lock.
 */
// R82: routing to stations. R83: one step at a time. R84: tickets with the acceptance.
describe('kitchen: tickets repository and service (medium)', () => {
  let ctx: MediumContext;
  let kitchen: KitchenRepository;
  let writes: TicketWritesRepository;
  let service: KitchenService;
  let orders: OrderRepository;
  let bus: EventBus;
  let owner: MediumUser;
  let business: MediumEntity;
  let placeOrder: KitchenFixture['placeOrder'];
  let accept: KitchenFixture['accept'];

  beforeAll(async () => {
    ({ ctx, kitchen, writes, orders, bus, owner, business, placeOrder, accept } =
      await startKitchenFixture());
    service = ctx.get(KitchenService);
  });
  afterAll(() => ctx?.close());

  const stationTicket = async (orderUuid: string, station: string) =>
    (await kitchen.ticketsOfOrder(orderUuid)).find(
      (t) => t.station === station && t.kind === 'new',
    )!;

  /** Writes one ticket the way the service does: numbered under the business's lock, after its latest version. */
  const writeTicket = async (orderUuid: string, station: string, businessUuid = business.uuid) =>
    (
      await bus.transaction(async (tx) => {
        const written = await writes.writeTickets(tx.manager, businessUuid, [
          newStationTicket(orderUuid, station, [ticketLine(1), ticketLine(0)]),
        ]);
        await writes.numberTickets(
          tx.manager,
          businessUuid,
          written.map((t) => t.uuid),
        );
        return written;
      })
    )[0] ?? null;

  describe('one ticket per order, station and kind', () => {
    it('writes a station ticket once among simultaneous writers, its lines once, in cart order', async () => {
      const order = await placeOrder();
      const results = await Promise.all(
        Array.from({ length: 6 }, () => writeTicket(order.uuid, 'grill')),
      );
      const written = results.filter((ticket) => ticket !== null);
      expect(written).toHaveLength(1);
      expect(written[0]!.lines.map((line) => [line.position, line.allergens])).toEqual([
        [0, ['nuts']],
        [1, ['nuts']],
      ]);
      const [{ tickets, lines }] = await ctx.sql<{ tickets: number; lines: number }>(
        `SELECT count(DISTINCT t.uuid)::int AS tickets, count(l.uuid)::int AS lines
         FROM kitchen_tickets t JOIN kitchen_ticket_lines l ON l.ticket_uuid = t.uuid
         WHERE t.order_uuid = $1`,
        [order.uuid],
      );
      expect({ tickets, lines }).toEqual({ tickets: 1, lines: 2 });

      // Another kind, or another station, of the same order is a ticket of its own.
      const voided = await bus.transaction(async (tx) => {
        const written = await writes.writeTickets(tx.manager, business.uuid, [
          { ...newStationTicket(order.uuid, 'grill', [ticketLine(0)]), kind: 'void' },
        ]);
        await writes.numberTickets(
          tx.manager,
          business.uuid,
          written.map((t) => t.uuid),
        );
        return written;
      });
      expect(voided).toHaveLength(1);
      expect(await writeTicket(order.uuid, 'bar')).not.toBeNull();
      expect((await kitchen.ticketsOfOrder(order.uuid)).map((t) => [t.station, t.kind])).toEqual(
        expect.arrayContaining([
          ['grill', 'new'],
          ['grill', 'void'],
          ['bar', 'new'],
        ]),
      );
    });

    it('opens one ticket per station with lines when an order is accepted, and none again when the acceptance is replayed', async () => {
      const order = await placeOrder();
      const accepted = await accept(order.uuid);
      // Written in one transaction, they share their creation time: order by station here.
      const tickets = await kitchen.ticketsOfOrder(order.uuid);
      expect(
        tickets.map((t) => [t.station, t.kind, t.status, t.lines.map((l) => l.position)]).sort(),
      ).toEqual([
        ['bar', 'new', 'queued', [2]],
        ['grill', 'new', 'queued', [0, 1]],
      ]);

      // The same change heard again (a replay, a second process) writes nothing more.
      const replay = {
        type: 'order.updated',
        order: accepted,
        changes: ['status'],
        previousStatus: 'pending',
      } as never;
      await Promise.all([
        bus.transaction((tx) => tx.emit('order.changed', replay)),
        bus.transaction((tx) => tx.emit('order.changed', replay)),
      ]);
      const after = await kitchen.ticketsOfOrder(order.uuid);
      expect(after.map((t) => t.uuid)).toEqual(tickets.map((t) => t.uuid));
    });

    it('gives each of a business’s changes its own version, however many write at once', async () => {
      const other = await newEntity(ctx, 'business', owner.uuid);
      const placed = await Promise.all(Array.from({ length: 5 }, () => placeOrder(other.uuid)));
      await Promise.all(placed.map((order) => writeTicket(order.uuid, 'grill', other.uuid)));
      const versions = await ctx.sql<{ version: string }>(
        'SELECT version::text AS version FROM kitchen_tickets WHERE business_uuid = $1 ORDER BY version',
        [other.uuid],
      );
      expect(versions.map((row) => row.version)).toEqual(['1', '2', '3', '4', '5']);
      // Another business counts from its own start.
      expect(await bus.transaction((tx) => kitchen.nextVersion(tx.manager, randomUUID()))).toBe(
        '1',
      );
    });
  });

  describe('the list and its since cursor', () => {
    let shop: MediumEntity;
    beforeAll(async () => {
      shop = await newEntity(ctx, 'business', owner.uuid);
    });

    it('pages the changes after a cursor in the order they changed, and ends a page that is not the last at its own last change', async () => {
      const placed = await Promise.all(Array.from({ length: 5 }, () => placeOrder(shop.uuid)));
      for (const order of placed) await writeTicket(order.uuid, 'grill', shop.uuid);
      const first = await kitchen.list({
        businessUuid: shop.uuid,
        status: 'all',
        since: '0',
        page: 1,
        perPage: 2,
      });
      expect(first.total).toBe(5);
      expect(first.tickets.map((t) => t.version)).toEqual(['1', '2']);
      expect(first.version).toBe('2');

      // A ticket changes: it comes after the cursor again, at its new version.
      const moved = first.tickets[0];
      await bus.transaction(async (tx) =>
        kitchen.setTicketStatus(
          tx.manager,
          moved.uuid,
          'preparing',
          await kitchen.nextVersion(tx.manager, shop.uuid),
        ),
      );
      const seen: string[] = [];
      let cursor = first.version;
      for (let guard = 0; guard < 5; guard++) {
        const next = await kitchen.list({
          businessUuid: shop.uuid,
          status: 'all',
          since: cursor,
          page: 1,
          perPage: 2,
        });
        seen.push(...next.tickets.map((t) => `${t.orderUuid}@${t.version}`));
        if (next.version === cursor) break;
        cursor = next.version;
      }
      expect(seen).toEqual([
        `${placed[2].uuid}@3`,
        `${placed[3].uuid}@4`,
        `${placed[4].uuid}@5`,
        `${moved.orderUuid}@6`,
      ]);
      expect(cursor).toBe('6');

      // Without a cursor: open tickets by their creation, the latest version as the cursor.
      const open = await kitchen.list({
        businessUuid: shop.uuid,
        status: 'open',
        page: 1,
        perPage: 100,
      });
      expect(open.tickets.map((t) => t.orderUuid)).toEqual(placed.map((o) => o.uuid));
      expect(open.version).toBe('6');
      const done = await kitchen.list({
        businessUuid: shop.uuid,
        status: 'done',
        page: 1,
        perPage: 100,
      });
      expect(done.total).toBe(0);
    });

    // Needs two connections: the embedded database has one.
    serverOnly(
      'reads one snapshot: a change committed while the list reads is after its cursor, not skipped',
      async () => {
        const quiet = await newEntity(ctx, 'business', owner.uuid);
        const early = await placeOrder(quiet.uuid);
        const late = await placeOrder(quiet.uuid);
        await writeTicket(early.uuid, 'grill', quiet.uuid);
        // Right after the list reads its page, another transaction commits a new ticket.
        const transaction = ctx.dataSource.transaction.bind(ctx.dataSource) as (
          isolation: string,
          work: (manager: EntityManager) => Promise<unknown>,
        ) => Promise<unknown>;
        const spy = jest.spyOn(ctx.dataSource, 'transaction').mockImplementationOnce(((
          isolation: string,
          work: (m: EntityManager) => unknown,
        ) =>
          transaction(isolation, async (manager) => {
            const query = manager.query.bind(manager);
            let first = true;
            manager.query = (async (text: string, params?: unknown[]) => {
              const rows: unknown = await query(text, params);
              if (first) {
                first = false;
                await writeTicket(late.uuid, 'grill', quiet.uuid);
              }
              return rows;
            }) as EntityManager['query'];
            return work(manager);
          })) as never);
        const answer = await kitchen.list({
          businessUuid: quiet.uuid,
          status: 'all',
          page: 1,
          perPage: 100,
        });
        spy.mockRestore();
        // The late ticket committed (version 2) ...
        expect((await kitchen.ticketsOfOrder(late.uuid))[0].version).toBe('2');
        // ... but the answer is of the snapshot before it, its cursor included ...
        expect(answer.tickets.map((t) => t.orderUuid)).toEqual([early.uuid]);
        expect(answer.total).toBe(1);
        expect(answer.version).toBe('1');
        // ... so following the cursor finds it.
        const next = await kitchen.list({
          businessUuid: quiet.uuid,
          status: 'all',
          since: answer.version,
          page: 1,
          perPage: 100,
        });
        expect(next.tickets.map((t) => t.orderUuid)).toEqual([late.uuid]);
      },
    );
  });

  describe('moving lines', () => {
    const user = () => ({ uuid: owner.uuid });

    it('moves a line one step at a time, refuses a jump without changing anything, and takes the order along', async () => {
      const order = await placeOrder();
      await accept(order.uuid);
      const grill = await stationTicket(order.uuid, 'grill');
      const line = grill.lines[0];

      const jump = await service
        .moveLine(user(), grill.uuid, line.uuid, { status: 'ready' })
        .catch((error: unknown) => error);
      expect(jump).toBeInstanceOf(ApiError);
      expect((jump as ApiError).getStatus()).toBe(422);
      expect((jump as ApiError).details[0]).toMatchObject({ current_status: 'queued' });
      const untouched = (await kitchen.findTicket(grill.uuid))!;
      expect(untouched.lines.map((l) => l.status)).toEqual(['queued', 'queued']);
      expect(untouched.version).toBe(grill.version);
      expect((await orders.findByUuid(order.uuid))!.status).toBe('accepted');

      const moved = await service.moveLine(user(), grill.uuid, line.uuid, { status: 'preparing' });
      // The ticket is as far as its slowest line.
      expect(moved.status).toBe('queued');
      expect((await orders.findByUuid(order.uuid))!.status).toBe('preparing');
      const stored = (await kitchen.findTicket(grill.uuid))!;
      expect(stored.lines.map((l) => l.status)).toEqual(['preparing', 'queued']);
      expect(BigInt(stored.version!)).toBeGreaterThan(BigInt(grill.version!));

      // One step back, for a mistake, is a move too.
      await service.moveLine(user(), grill.uuid, line.uuid, { status: 'queued' });
      expect((await kitchen.findTicket(grill.uuid))!.lines[0].status).toBe('queued');
    });

    it('lets one of two simultaneous moves of the same line win; the other sees its result', async () => {
      const order = await placeOrder();
      await accept(order.uuid);
      const grill = await stationTicket(order.uuid, 'grill');
      const line = grill.lines[1];
      const results = await Promise.allSettled([
        service.moveLine(user(), grill.uuid, line.uuid, { status: 'preparing' }),
        service.moveLine(user(), grill.uuid, line.uuid, { status: 'preparing' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as ApiError).getStatus()).toBe(422);
      expect((await kitchen.findTicket(grill.uuid))!.lines.map((l) => l.status)).toEqual([
        'queued',
        'preparing',
      ]);
    });

    it('makes the order ready when every line of every station ticket is bumped, and a second bump is refused', async () => {
      const order = await placeOrder();
      await accept(order.uuid);
      const grill = await stationTicket(order.uuid, 'grill');
      const bar = await stationTicket(order.uuid, 'bar');
      await service.bumpTicket(user(), grill.uuid);
      expect((await orders.findByUuid(order.uuid))!.status).not.toBe('ready');
      await service.bumpTicket(user(), bar.uuid);
      expect((await orders.findByUuid(order.uuid))!.status).toBe('ready');
      const again = await service.bumpTicket(user(), bar.uuid).catch((error: unknown) => error);
      expect((again as ApiError).getStatus()).toBe(422);
    });

    it('hides another business’s ticket from a user of no part in it (404)', async () => {
      const order = await placeOrder();
      await accept(order.uuid);
      const grill = await stationTicket(order.uuid, 'grill');
      const stranger = await newUser(ctx);
      const refused = await service
        .moveLine({ uuid: stranger.uuid }, grill.uuid, grill.lines[0].uuid, {
          status: 'preparing',
        })
        .catch((error: unknown) => error);
      expect((refused as ApiError).getStatus()).toBe(404);
      expect((await kitchen.findTicket(grill.uuid))!.lines[0].status).toBe('queued');
    });
  });

  it('counts each docket served and answers how many came before it', async () => {
    const order = await placeOrder();
    const ticket = (await writeTicket(order.uuid, 'grill'))!;
    const before = await Promise.all([
      kitchen.countPrint(ticket.uuid),
      kitchen.countPrint(ticket.uuid),
    ]);
    expect(before.sort()).toEqual([0, 1]);
    expect((await kitchen.findTicket(ticket.uuid))!.printedCount).toBe(2);
  });
});
