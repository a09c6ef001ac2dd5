import { entityPath } from './support/entity';
import { expectError, expectOk } from './support/expect';
import {
  acceptedOrder,
  KITCHEN,
  KitchenCast,
  newKitchenCast,
  ticketPath,
  ticketsOf,
  ticketsPath,
} from './support/kitchen';
import { guestHeaders, orderBody, placeOrder, updateOrderRequest } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

async function ticketRows(t: TestApp): Promise<number> {
  const [row] = await t.dataSource.query('SELECT count(*)::int AS n FROM kitchen_tickets');
  return row.n;
}

describe('the kitchen: stations and tickets', () => {
  let t: TestApp;
  let cast: KitchenCast;

  beforeAll(async () => {
    t = await startTestApp();
    cast = await newKitchenCast(t);
  });

  afterAll(async () => {
    await t.close();
  });

  async function orderOf(uuid: string) {
    return expectOk(await t.http.get(`${t.core}/orders/${uuid}`).set(cast.owner.headers));
  }

  describe('the stations setting (R81)', () => {
    const bad: Array<[string, unknown, string]> = [
      ['no stations', { stations: [] }, 'extra_data.kitchen.stations'],
      [
        'a bad key',
        { stations: [{ key: 'Grill!', title: 'Grill' }] },
        'extra_data.kitchen.stations[0].key',
      ],
      [
        'a key used twice',
        {
          stations: [
            { key: 'a', title: 'A' },
            { key: 'a', title: 'B' },
          ],
        },
        'extra_data.kitchen.stations[1].key',
      ],
      [
        'an unknown default',
        { stations: [{ key: 'a', title: 'A' }], default_station: 'b' },
        'extra_data.kitchen.default_station',
      ],
      [
        'a bad item uuid',
        { stations: [{ key: 'a', title: 'A', item_uuids: ['nope'] }] },
        'extra_data.kitchen.stations[0].item_uuids',
      ],
      [
        'too many stations',
        { stations: Array.from({ length: 21 }, (_, i) => ({ key: `s${i}`, title: 'S' })) },
        'extra_data.kitchen.stations',
      ],
    ];

    it.each(bad)(
      'refuses %s with 400 naming the path, storing nothing',
      async (_, kitchen, field) => {
        const business = cast.catalog.business;
        const res = await t.http
          .put(entityPath(t, 'business', business.uuid))
          .set(cast.owner.headers)
          .send({ extra_data: { ...business.extra_data, kitchen } });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
        const [row] = await t.dataSource.query('SELECT extra_data FROM entities WHERE uuid = $1', [
          business.uuid,
        ]);
        expect(row.extra_data.kitchen).toEqual(business.extra_data.kitchen);
        expect(row.extra_data.kitchen.stations.map((s: any) => s.key)).toEqual(
          KITCHEN.stations.map((s) => s.key),
        );
      },
    );

    it('is the owner’s: a manager cannot change it', async () => {
      const business = cast.catalog.business;
      const res = await t.http
        .put(entityPath(t, 'business', business.uuid))
        .set(cast.manager.headers)
        .send({ extra_data: { ...business.extra_data, kitchen: { stations: [{ key: 'x' }] } } });
      expectError(res, 403, 'FORBIDDEN');
    });
  });

  describe('tickets written with the acceptance (R82, R84)', () => {
    it('one ticket per station with lines, routed by category and the default', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.staff, {
        fulfilment_type: 'dine_in',
        onpremise_data: {
          customer_onpremise_location_type: 'table',
          customer_onpremise_location_number: '12',
          customer_onpremise_location: 'Table 12',
        },
        general_note: 'Birthday',
      });
      const tickets = await ticketsOf(t, cast.staff, cast.catalog.business.uuid, order.uuid);
      const byStation = Object.fromEntries(tickets.map((ticket) => [ticket.station, ticket]));
      expect(Object.keys(byStation).sort()).toEqual(['bar', 'grill']);
      expect(byStation.grill.lines.map((l: any) => l.title_name)).toEqual([
        'Suya burger',
        'Pepper soup',
      ]);
      expect(byStation.bar.lines.map((l: any) => l.title_name)).toEqual(['Chapman']);
      // The allergens the line recorded at placement reach the cook.
      expect(byStation.grill.lines.map((l: any) => l.allergens)).toEqual([[], ['fish']]);
      expect(byStation.grill).toMatchObject({
        kind: 'new',
        status: 'queued',
        order_reference: order.order_reference,
        fulfilment_type: 'dine_in',
        table: 'Table 12',
        general_note: 'Birthday',
        printed_count: 0,
      });
    });

    it('the business’s view of the order lists its tickets; the guest’s does not', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.manager);
      const view = await orderOf(order.uuid);
      expect(view.tickets.map((ticket: any) => `${ticket.station}:${ticket.kind}`).sort()).toEqual([
        'bar:new',
        'grill:new',
      ]);
      const guest = await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': order.order_token });
      expect(expectOk(guest).tickets).toBeUndefined();
      const pending = await placeOrder(t, orderBody(cast.catalog));
      expect((await orderOf(pending.uuid)).tickets).toBeUndefined();
    });

    it('a business without the setting has one station, kitchen, and orders as before', async () => {
      const order = await acceptedOrder(t, cast.other, cast.outsider);
      const tickets = await ticketsOf(t, cast.outsider, cast.other.business.uuid, order.uuid);
      expect(tickets.map((ticket) => ticket.station)).toEqual(['kitchen']);
      expect(
        (await t.http.get(`${t.core}/orders/${order.uuid}`).set(cast.outsider.headers)).body.data
          .status,
      ).toBe('accepted');
    });

    it('a pending order has no tickets', async () => {
      const order = await placeOrder(t, orderBody(cast.catalog));
      expect(await ticketsOf(t, cast.owner, cast.catalog.business.uuid, order.uuid)).toEqual([]);
    });

    it('20 parallel acceptances of one order make one set of tickets', async () => {
      const order = await placeOrder(t, orderBody(cast.catalog));
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          updateOrderRequest(t, cast.staff.headers, order.uuid, { status: 'accepted' }),
        ),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM kitchen_tickets WHERE order_uuid = $1',
        [order.uuid],
      );
      expect(row.n).toBe(2);
    });
  });

  describe('moves (R83, R85, R87)', () => {
    it('lines move one step at a time; the order follows, under the member', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const tickets = await ticketsOf(t, cast.staff, cast.catalog.business.uuid, order.uuid);
      const grill = tickets.find((ticket) => ticket.station === 'grill');
      const bar = tickets.find((ticket) => ticket.station === 'bar');
      const line = grill.lines[0];

      const jump = await t.http
        .put(ticketPath(t, grill.uuid, 'lines', line.line_uuid))
        .set(cast.staff.headers)
        .send({ status: 'ready' });
      expectError(jump, 422, 'UNPROCESSABLE');
      expect((await orderOf(order.uuid)).status).toBe('accepted');

      const bad = await t.http
        .put(ticketPath(t, grill.uuid, 'lines', line.line_uuid))
        .set(cast.staff.headers)
        .send({ status: 'cooking' });
      expectError(bad, 400, 'VALIDATION_FAILED');

      const moved = expectOk(
        await t.http
          .put(ticketPath(t, grill.uuid, 'lines', line.line_uuid))
          .set(cast.staff.headers)
          .send({ status: 'preparing' }),
      );
      expect(moved.status).toBe('queued');
      expect(moved.lines[0].status).toBe('preparing');
      const preparing = await orderOf(order.uuid);
      expect(preparing.status).toBe('preparing');
      const entry = preparing.history.at(-1);
      expect(entry).toMatchObject({ field: 'status', to: 'preparing', actor: 'staff' });
      expect(entry.by).toBe(cast.staff.uuid);

      // Back one step for a mistake.
      const back = expectOk(
        await t.http
          .put(ticketPath(t, grill.uuid, 'lines', line.line_uuid))
          .set(cast.staff.headers)
          .send({ status: 'queued' }),
      );
      expect(back.lines[0].status).toBe('queued');

      const bumped = expectOk(
        await t.http.post(ticketPath(t, grill.uuid, 'bump')).set(cast.manager.headers),
      );
      expect(bumped.status).toBe('ready');
      expect((await orderOf(order.uuid)).status).toBe('preparing');
      expectOk(await t.http.post(ticketPath(t, bar.uuid, 'bump')).set(cast.staff.headers));
      const ready = await orderOf(order.uuid);
      expect(ready.status).toBe('ready');
      expect(ready.history.at(-1)).toMatchObject({ to: 'ready', actor: 'staff' });
      expect(ready.history.at(-1).by).toBe(cast.staff.uuid);
    });

    it('parallel moves of one line make one move; parallel bumps make the order ready once', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const tickets = await ticketsOf(t, cast.staff, cast.catalog.business.uuid, order.uuid);
      const grill = tickets.find((ticket) => ticket.station === 'grill');
      const line = grill.lines[0];
      const moves = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.http
            .put(ticketPath(t, grill.uuid, 'lines', line.line_uuid))
            .set(cast.staff.headers)
            .send({ status: 'preparing' }),
        ),
      );
      expect(moves.filter((res) => res.status === 200)).toHaveLength(1);
      for (const res of moves.filter((r) => r.status !== 200)) {
        expectError(res, 422, 'UNPROCESSABLE');
      }
      const bumps = await Promise.all(
        [...tickets, ...tickets].map((ticket) =>
          t.http.post(ticketPath(t, ticket.uuid, 'bump')).set(cast.staff.headers),
        ),
      );
      expect(bumps.filter((res) => res.status === 200)).toHaveLength(2);
      for (const res of bumps.filter((r) => r.status !== 200)) {
        expectError(res, 422, 'UNPROCESSABLE');
      }
      const ready = await orderOf(order.uuid);
      expect(ready.status).toBe('ready');
      const statusMoves = ready.history.filter((entry: any) => entry.field === 'status');
      expect(statusMoves.map((entry: any) => entry.to)).toEqual([
        'pending',
        'accepted',
        'preparing',
        'ready',
      ]);
    });

    it('a staff member of another business sees and moves none of them (404)', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const [ticket] = await ticketsOf(t, cast.owner, cast.catalog.business.uuid, order.uuid);
      const list = await t.http
        .get(ticketsPath(t, cast.catalog.business.uuid))
        .set(cast.outsider.headers);
      expectError(list, 404, 'NOT_FOUND');
      const move = await t.http
        .put(ticketPath(t, ticket.uuid, 'lines', ticket.lines[0].line_uuid))
        .set(cast.outsider.headers)
        .send({ status: 'preparing' });
      expectError(move, 404, 'NOT_FOUND');
      expectError(
        await t.http.post(ticketPath(t, ticket.uuid, 'bump')).set(cast.outsider.headers),
        404,
        'NOT_FOUND',
      );
      expectError(
        await t.http.get(ticketPath(t, ticket.uuid, 'docket.txt')).set(cast.outsider.headers),
        404,
        'NOT_FOUND',
      );
      const [stored] = await t.dataSource.query(
        'SELECT status, printed_count FROM kitchen_tickets WHERE uuid = $1',
        [ticket.uuid],
      );
      expect(stored).toEqual({ status: 'queued', printed_count: 0 });
      // Their own list holds none of the restaurant's tickets.
      const own: any[] = expectOk(
        await t.http
          .get(ticketsPath(t, cast.other.business.uuid, '?status=all'))
          .set(cast.outsider.headers),
      );
      expect(own.some((entry) => entry.business_uuid === cast.catalog.business.uuid)).toBe(false);
    });
  });

  describe('cancellation (R86)', () => {
    it('voids each station’s ticket and closes the open ones', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      expectOk(
        await updateOrderRequest(t, cast.owner.headers, order.uuid, { status: 'cancelled' }),
      );
      const tickets = await ticketsOf(t, cast.staff, cast.catalog.business.uuid, order.uuid);
      const kinds = tickets.map((ticket) => `${ticket.station}:${ticket.kind}:${ticket.status}`);
      expect(kinds.sort()).toEqual([
        'bar:new:cancelled',
        'bar:void:queued',
        'grill:new:cancelled',
        'grill:void:queued',
      ]);
      const open: any[] = expectOk(
        await t.http.get(ticketsPath(t, cast.catalog.business.uuid)).set(cast.staff.headers),
      );
      const voids = open.filter((ticket) => ticket.order_uuid === order.uuid);
      expect(voids.map((ticket) => ticket.kind)).toEqual(['void', 'void']);
      const cancelled = tickets.find((ticket) => ticket.kind === 'new');
      const before = await ticketRows(t);
      expectError(
        await t.http
          .put(ticketPath(t, cancelled.uuid, 'lines', cancelled.lines[0].line_uuid))
          .set(cast.staff.headers)
          .send({ status: 'preparing' }),
        422,
        'UNPROCESSABLE',
      );
      expect(await ticketRows(t)).toBe(before);
      for (const ticket of voids) {
        expectOk(await t.http.post(ticketPath(t, ticket.uuid, 'bump')).set(cast.staff.headers));
      }
      const after: any[] = expectOk(
        await t.http.get(ticketsPath(t, cast.catalog.business.uuid)).set(cast.staff.headers),
      );
      expect(after.some((ticket) => ticket.order_uuid === order.uuid)).toBe(false);
    });
  });

  describe('the list', () => {
    it('answers what changed after its cursor', async () => {
      const first = await t.http
        .get(ticketsPath(t, cast.catalog.business.uuid, '?status=all'))
        .set(cast.staff.headers);
      expectOk(first);
      const cursor = first.body.meta.cursor;
      expect(typeof cursor).toBe('string');
      const nothing = expectOk(
        await t.http
          .get(ticketsPath(t, cast.catalog.business.uuid, `?since=${cursor}`))
          .set(cast.staff.headers),
      );
      expect(nothing).toEqual([]);
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const changed: any[] = expectOk(
        await t.http
          .get(ticketsPath(t, cast.catalog.business.uuid, `?since=${cursor}`))
          .set(cast.staff.headers),
      );
      expect(changed.map((ticket) => ticket.order_uuid)).toEqual([order.uuid, order.uuid]);
      // Changes committed while a reader follows the cursor are never skipped.
      const pending = await Promise.all(
        Array.from({ length: 8 }, () => placeOrder(t, orderBody(cast.catalog))),
      );
      const seen = new Set<string>();
      const start = await t.http
        .get(ticketsPath(t, cast.catalog.business.uuid))
        .set(cast.staff.headers);
      let since: string = start.body.meta.cursor;
      let accepting = true;
      const accepted = Promise.all(
        pending.map((order) =>
          updateOrderRequest(t, cast.owner.headers, order.uuid, { status: 'accepted' }),
        ),
      ).finally(() => (accepting = false));
      const follow = async () => {
        const res = await t.http
          .get(ticketsPath(t, cast.catalog.business.uuid, `?since=${since}`))
          .set(cast.staff.headers);
        for (const ticket of expectOk(res)) seen.add(ticket.uuid);
        since = res.body.meta.cursor;
      };
      while (accepting) await follow();
      await accepted;
      await follow();
      const [row] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM kitchen_tickets WHERE order_uuid = ANY($1::uuid[])',
        [pending.map((order) => order.uuid)],
      );
      expect(row.n).toBe(16);
      expect(seen.size).toBe(16);
      expectError(
        await t.http
          .get(ticketsPath(t, cast.catalog.business.uuid, '?since=garbage'))
          .set(cast.staff.headers),
        400,
        'VALIDATION_FAILED',
      );
    });
  });
});
