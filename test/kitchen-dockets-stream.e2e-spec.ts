import { expectError, expectOk } from './support/expect';
import {
  acceptedOrder,
  KitchenCast,
  newKitchenCast,
  openStationStream,
  ticketPath,
  ticketsOf,
} from './support/kitchen';
import { addMember, membersPath } from './support/team';
import { createUser } from './support/factory';
import { serverOnly } from './support/server-only';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { createTestDatabase, TestDatabase } from './support/database';
import { startTestApp, TestApp } from './support/test-app';

/** The raw bytes of an answer, whatever its type. */
function binary(res: any, callback: (error: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

describe('the kitchen: dockets and the station stream', () => {
  let t: TestApp;
  let cast: KitchenCast;

  beforeAll(async () => {
    t = await startTestApp();
    cast = await newKitchenCast(t);
  });

  afterAll(async () => {
    await t.close();
  });

  // R89: dockets are ASCII within their width.
  describe('dockets', () => {
    it('text of 32, 42 and 48 columns, ASCII, REPRINT from the second', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.staff, {
        amount: 60,
        general_note: 'Crème fraîche à part, s’il vous plaît — merci beaucoup pour tout',
        cart_items: cast.catalog.items.map((item) => ({
          uuid: item.uuid,
          quantity: 2,
          item_note: 'Très épicé, pas d’oignons, supercalifragilisticexpialidocious',
        })),
      });
      const [grill] = (
        await ticketsOf(t, cast.staff, cast.catalog.business.uuid, order.uuid)
      ).filter((ticket) => ticket.station === 'grill');
      const texts: string[] = [];
      for (const width of [32, 42, 48]) {
        const res = await t.http
          .get(ticketPath(t, grill.uuid, `docket.txt?width=${width}`))
          .set(cast.staff.headers);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        const lines = res.text.split('\n');
        for (const line of lines) {
          expect(line.length).toBeLessThanOrEqual(width);
          expect(line).toMatch(/^[ -~]*$/);
        }
        texts.push(res.text);
      }
      expect(texts[0]).not.toContain('REPRINT');
      expect(texts[0]).toContain('GRILL');
      expect(texts[0]).toContain(`#${order.order_reference}`);
      expect(texts[0]).toContain('Creme');
      expect(texts[0]).toContain('Tres epice');
      expect(texts[1].split('\n')[0]).toContain('REPRINT');
      const [row] = await t.dataSource.query(
        'SELECT printed_count FROM kitchen_tickets WHERE uuid = $1',
        [grill.uuid],
      );
      expect(row.printed_count).toBe(3);
    });

    it('ESC/POS bytes: initialise, double height, feed and cut', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const [ticket] = await ticketsOf(t, cast.owner, cast.catalog.business.uuid, order.uuid);
      const res = await t.http
        .get(ticketPath(t, ticket.uuid, 'docket.bin?width=32'))
        .set(cast.manager.headers)
        .buffer(true)
        .parse(binary);
      expect(res.status).toBe(200);
      const bytes: Buffer = res.body;
      expect([...bytes.subarray(0, 5)]).toEqual([0x1b, 0x40, 0x1b, 0x21, 0x10]);
      expect([...bytes.subarray(-7)]).toEqual([0x1b, 0x64, 0x04, 0x1d, 0x56, 0x42, 0x00]);
      expect([...bytes].every((byte) => byte < 0x80)).toBe(true);
    });

    it('refuses a width it does not print', async () => {
      const order = await acceptedOrder(t, cast.catalog, cast.owner);
      const [ticket] = await ticketsOf(t, cast.owner, cast.catalog.business.uuid, order.uuid);
      expectError(
        await t.http.get(ticketPath(t, ticket.uuid, 'docket.txt?width=40')).set(cast.staff.headers),
        400,
        'VALIDATION_FAILED',
      );
      const [row] = await t.dataSource.query(
        'SELECT printed_count FROM kitchen_tickets WHERE uuid = $1',
        [ticket.uuid],
      );
      expect(row.printed_count).toBe(0);
    });
  });

  // R88: station streams end with their credential.
  describe('the station stream', () => {
    it('carries the station’s tickets to the team and nothing to an outsider', async () => {
      const bar = await openStationStream(t, cast.staff.token, cast.catalog.business.uuid, 'bar');
      const all = await openStationStream(t, cast.manager.token, cast.catalog.business.uuid);
      const outsider = await openStationStream(t, cast.outsider.token, cast.catalog.business.uuid);
      try {
        expect(outsider.status).toBe(404);
        const order = await acceptedOrder(t, cast.catalog, cast.owner);
        const created = await bar.waitFor(
          (e) => e.event === 'ticket.created' && e.data.order_uuid === order.uuid,
        );
        expect(created.data.station).toBe('bar');
        expect(created.data.lines).toHaveLength(1);
        await all.waitFor((e) => e.data?.order_uuid === order.uuid && e.data.station === 'grill');
        expect(bar.events.some((e) => e.data?.station === 'grill')).toBe(false);
        expectOk(
          await t.http.post(ticketPath(t, created.data.uuid, 'bump')).set(cast.staff.headers),
        );
        const updated = await bar.waitFor(
          (e) => e.event === 'ticket.updated' && e.data.uuid === created.data.uuid,
        );
        expect(updated.data.status).toBe('ready');
      } finally {
        bar.close();
        all.close();
        outsider.close();
      }
    });

    it('200 open station streams each receive a new ticket within 1 s at the 99th percentile', async () => {
      const streams = [];
      for (let i = 0; i < 200; i += 20) {
        streams.push(
          ...(await Promise.all(
            Array.from({ length: 20 }, (_, j) =>
              openStationStream(
                t,
                (i + j) % 2 ? cast.staff.token : cast.owner.token,
                cast.catalog.business.uuid,
                'bar',
              ),
            ),
          )),
        );
      }
      try {
        const order = await placeOrder(t, orderBody(cast.catalog));
        const started = Date.now();
        expectOk(
          await updateOrderRequest(t, cast.owner.headers, order.uuid, { status: 'accepted' }),
        );
        const latencies = await Promise.all(
          streams.map(async (stream) => {
            await stream.waitFor((e) => e.data?.order_uuid === order.uuid, 10_000);
            return Date.now() - started;
          }),
        );
        latencies.sort((a, b) => a - b);
        const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1];
        expect(p99).toBeLessThan(1000);
      } finally {
        for (const stream of streams) stream.close();
      }
    });

    it('ends when its token no longer holds (a password change voids older tokens)', async () => {
      const user = await createUser(t);
      await addMember(t, cast.owner, cast.catalog.business.uuid, user, 'staff');
      const stream = await openStationStream(t, user.token, cast.catalog.business.uuid);
      await t.dataSource.query(
        'UPDATE users SET token_version = token_version + 1 WHERE uuid = $1',
        [user.uuid],
      );
      const closed = await stream.waitFor((e) => e.event === 'stream.closed', 6_000);
      expect(closed.data.reason).toMatch(/no longer valid/);
      await stream.ended;
    });

    it('ends when the member is removed', async () => {
      const stream = await openStationStream(t, cast.manager.token, cast.catalog.business.uuid);
      const members: any[] = expectOk(
        await t.http.get(membersPath(t, cast.catalog.business.uuid)).set(cast.owner.headers),
      );
      const member = members.find((entry) => entry.user_uuid === cast.manager.uuid);
      expectOk(
        await t.http
          .delete(membersPath(t, cast.catalog.business.uuid, member.uuid))
          .set(cast.owner.headers),
      );
      const closed = await stream.waitFor((e) => e.event === 'stream.closed', 6_000);
      expect(closed.data.reason).toBe('membership_changed');
      await stream.ended;
    });
  });
});

describe('the station stream across replicas', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    if (!process.env.TEST_DATABASE_URL) return;
    database = await createTestDatabase();
    a = await startTestApp({}, { database });
    b = await startTestApp({}, { database });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  serverOnly('a ticket written by one replica reaches the streams of another', async () => {
    const cast = await newKitchenCast(a);
    const stream = await openStationStream(b, cast.staff.token, cast.catalog.business.uuid);
    try {
      const order = await acceptedOrder(a, cast.catalog, cast.owner);
      const event = await stream.waitFor((e) => e.data?.order_uuid === order.uuid);
      expect(event.event).toBe('ticket.created');
    } finally {
      stream.close();
    }
  });
});
