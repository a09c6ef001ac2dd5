import { randomUUID } from 'node:crypto';
import { AccountModule } from '../../src/account';
import { AuthModule } from '../../src/auth/auth.module';
import { MessagingModule } from '../../src/messaging';
import { readGuestMessageSettings } from '../../src/messaging/domain/guest-message-settings';
import { GuestMessageDelivery } from '../../src/messaging/guest-message-delivery';
import { GuestMessageQueue } from '../../src/messaging/guest-message-queue';
import {
  GuestMessageRepository,
  NewGuestMessage,
} from '../../src/messaging/guest-message.repository';
import { createMediumContext, MediumContext } from '../support/medium';
import { MediumEntity, MediumUser, newEntity, newUser } from '../support/medium-factory';

/**
 * The guest-message repository and the queue that writes through it, on a
 * real database, no HTTP: one message per order, event and channel however
 * many write it, the monthly count per business in its own time zone, the
 * stop list, and a status that only moves forward.
 */
// R102: one message per order and event. R104: the stop list. R105: the monthly limit.
describe('guest messages: repository and queue (medium)', () => {
  let ctx: MediumContext;
  let messages: GuestMessageRepository;
  let queue: GuestMessageQueue;
  let delivery: GuestMessageDelivery;
  let owner: MediumUser;

  beforeAll(async () => {
    // The composition root's auth: the order module imports the account module, which needs it.
    ctx = await createMediumContext({
      imports: [AuthModule.forRoot(AccountModule), MessagingModule],
    });
    messages = ctx.get(GuestMessageRepository);
    queue = ctx.get(GuestMessageQueue);
    delivery = ctx.get(GuestMessageDelivery);
    owner = await newUser(ctx);
  });
  afterAll(() => ctx?.close());
  afterEach(() => ctx.clock.reset());

  const message = (overrides: Partial<NewGuestMessage> = {}): NewGuestMessage => ({
    businessUuid: randomUUID(),
    orderUuid: randomUUID(),
    event: 'accepted',
    channel: 'whatsapp',
    phone: '+2348031234567',
    language: 'en',
    parameters: ['Bukka', 'ABCD-EFGH', 'about 20 minutes', 'https://example.test/o'],
    status: 'queued',
    ...overrides,
  });

  const insert = (fields: NewGuestMessage, at = ctx.clock.now()) =>
    ctx.dataSource.transaction((manager) => messages.insertMessage(manager, fields, at));

  const statusOf = async (uuid: string) => (await messages.find(uuid))!.status;

  describe('one message per order, event and channel', () => {
    it('lets exactly one of simultaneous writers of the same message write it', async () => {
      const fields = message();
      const uuids = await Promise.all(Array.from({ length: 6 }, () => insert(fields)));
      const written = uuids.filter((uuid) => uuid !== null);
      expect(written).toHaveLength(1);
      const [{ count }] = await ctx.sql<{ count: number }>(
        'SELECT count(*)::int AS count FROM guest_messages WHERE order_uuid = $1',
        [fields.orderUuid],
      );
      expect(count).toBe(1);
      const stored = (await messages.find(written[0]!))!;
      expect(stored).toMatchObject({
        status: 'queued',
        fallback: false,
        error: null,
        provider: null,
        parameters: fields.parameters,
      });

      // The fallback on the next channel, and the order's next event, are messages of their own.
      expect(await insert({ ...fields, channel: 'sms', fallback: true })).not.toBeNull();
      expect(await insert({ ...fields, event: 'ready' })).not.toBeNull();
      expect(await insert({ ...fields, channel: 'sms' })).toBeNull();
    });
  });

  describe('the monthly limit, counted per business in its time zone', () => {
    let business: MediumEntity;
    let neighbour: MediumEntity;
    const settings = {
      channels: ['sms'],
      events: ['accepted', 'ready'],
      monthly_limit: 3,
    };

    beforeAll(async () => {
      business = await newEntity(ctx, 'business', owner.uuid, {
        titleName: 'Bukka',
        extraData: { guest_messages: settings, opening_hours: { timezone: 'Africa/Lagos' } },
      });
      neighbour = await newEntity(ctx, 'business', owner.uuid);
    });

    const write = (orderUuid: string, phone = '+2348030000001') =>
      ctx.dataSource.transaction(async (manager) => {
        const row = (await messages.business(manager, business.uuid))!;
        return queue.write(manager, {
          business: row,
          settings: readGuestMessageSettings(row.extraData)!,
          orderUuid,
          event: 'accepted',
          channel: 'sms',
          phone,
          language: 'en',
          parameters: ['Bukka', 'ABCD-EFGH', 'soon', 'https://example.test/o'],
          fallback: false,
        });
      });

    it('counts the business’s own month in its time zone, not messages never sent, and lets exactly the rest through among simultaneous writers', async () => {
      // 15 March 2026, noon in Lagos (UTC+1): March began at 2026-02-28T23:00Z.
      ctx.clock.set(new Date('2026-03-15T11:00:00Z'));
      const mine = (overrides: Partial<NewGuestMessage>) =>
        message({ businessUuid: business.uuid, channel: 'sms', ...overrides });
      // Counted: the first minute of March in Lagos.
      await insert(mine({ status: 'delivered' }), new Date('2026-02-28T23:00:00Z'));
      // Not counted: the last minute of February in Lagos, messages never sent, another business.
      await insert(mine({ status: 'read' }), new Date('2026-02-28T22:59:00Z'));
      await insert(mine({ status: 'skipped_limit' }), new Date('2026-03-02T10:00:00Z'));
      await insert(mine({ status: 'stopped' }), new Date('2026-03-02T10:00:00Z'));
      await insert(
        message({ businessUuid: neighbour.uuid, status: 'sent' }),
        new Date('2026-03-03T10:00:00Z'),
      );
      const counted = await ctx.dataSource.manager.transaction((manager) =>
        messages.countedBetween(
          manager,
          business.uuid,
          new Date('2026-02-28T23:00:00Z'),
          new Date('2026-03-31T23:00:00Z'),
        ),
      );
      expect(counted).toBe(1);

      const orders = Array.from({ length: 8 }, () => randomUUID());
      const uuids = await Promise.all(orders.map((order) => write(order)));
      expect(uuids.every((uuid) => uuid !== null)).toBe(true);
      const rows = await ctx.sql<{ status: string }>(
        'SELECT status FROM guest_messages WHERE order_uuid = ANY($1::uuid[])',
        [orders],
      );
      const skipped = rows.filter((row) => row.status === 'skipped_limit');
      expect(rows).toHaveLength(8);
      expect(skipped).toHaveLength(6);
      // Only the two that went through have an outbox row.
      const [{ outbox }] = await ctx.sql<{ outbox: number }>(
        `SELECT count(*)::int AS outbox FROM outbox
         WHERE kind = 'guest_message' AND payload->>'message_uuid' = ANY($1::text[])`,
        [uuids],
      );
      expect(outbox).toBe(2);
      // The owner hears of it once for the month, however many were skipped.
      const notices = await ctx.sql<{ month: string }>(
        'SELECT month FROM guest_message_limit_notices WHERE business_uuid = $1',
        [business.uuid],
      );
      expect(notices).toEqual([{ month: '2026-03' }]);
      const [{ told }] = await ctx.sql<{ told: number }>(
        `SELECT count(*)::int AS told FROM notifications
         WHERE user_uuid = $1 AND kind = 'guest_messages.limit_reached'`,
        [owner.uuid],
      );
      expect(told).toBe(1);

      // The next month (in Lagos) counts from nothing again.
      ctx.clock.set(new Date('2026-03-31T23:30:00Z'));
      const april = randomUUID();
      await write(april);
      const [next] = await ctx.sql<{ status: string }>(
        'SELECT status FROM guest_messages WHERE order_uuid = $1',
        [april],
      );
      expect(next.status).not.toBe('skipped_limit');
    });
  });

  describe('the stop list', () => {
    it('keeps one stop per business and number, for that business only', async () => {
      const business = randomUUID();
      const other = randomUUID();
      const phone = '+2348039999999';
      await Promise.all(
        Array.from({ length: 4 }, () =>
          ctx.dataSource.transaction((manager) => messages.addStop(manager, business, phone)),
        ),
      );
      const rows = await ctx.sql('SELECT 1 FROM guest_message_stops WHERE business_uuid = $1', [
        business,
      ]);
      expect(rows).toHaveLength(1);
      const manager = ctx.dataSource.manager;
      expect(await messages.isStopped(manager, business, phone)).toBe(true);
      expect(await messages.isStopped(manager, other, phone)).toBe(false);
      expect(await messages.isStopped(manager, business, '+2348039999998')).toBe(false);
    });

    it('writes a stopped number’s message as stopped, with nothing to send, and uncounted', async () => {
      const business = await newEntity(ctx, 'business', owner.uuid, {
        extraData: { guest_messages: { channels: ['sms'], events: ['ready'], monthly_limit: 1 } },
      });
      const phone = '+2348031111111';
      await ctx.dataSource.transaction((manager) =>
        messages.addStop(manager, business.uuid, phone),
      );
      const uuid = await ctx.dataSource.transaction(async (manager) => {
        const row = (await messages.business(manager, business.uuid))!;
        return queue.write(manager, {
          business: row,
          settings: readGuestMessageSettings(row.extraData)!,
          orderUuid: randomUUID(),
          event: 'ready',
          channel: 'sms',
          phone,
          language: 'en',
          parameters: ['Bukka', 'ABCD-EFGH', 'https://example.test/o'],
          fallback: false,
        });
      });
      expect(await statusOf(uuid!)).toBe('stopped');
      const outbox = await ctx.sql(`SELECT 1 FROM outbox WHERE payload->>'message_uuid' = $1`, [
        uuid,
      ]);
      expect(outbox).toHaveLength(0);
      const counted = await ctx.dataSource.transaction((manager) =>
        messages.countedBetween(
          manager,
          business.uuid,
          new Date(Date.now() - 86_400_000),
          new Date(Date.now() + 86_400_000),
        ),
      );
      expect(counted).toBe(0);
    });

    it('holds a stop that came after the message was queued: delivery sends nothing', async () => {
      const business = randomUUID();
      const stoppedLater = (await insert(message({ businessUuid: business, channel: 'sms' })))!;
      const other = (await insert(
        message({ businessUuid: business, channel: 'sms', phone: '+2348032222222' }),
      ))!;
      await ctx.dataSource.transaction((manager) =>
        messages.addStop(manager, business, '+2348031234567'),
      );
      await delivery.deliver({ message_uuid: stoppedLater }, 1);
      await delivery.deliver({ message_uuid: other }, 1);
      expect(await messages.find(stoppedLater)).toMatchObject({
        status: 'stopped',
        provider: null,
      });
      expect(await messages.find(other)).toMatchObject({ status: 'sent', provider: 'log' });
    });
  });

  describe('a status moves forward only', () => {
    const at = () => ctx.clock.now();
    const move = (uuid: string, to: 'delivered' | 'read' | 'failed', error?: string) =>
      ctx.dataSource.transaction((manager) =>
        messages.move(manager, uuid, to, error === undefined ? {} : { error }, at()),
      );

    it('sends a queued message once, however many senders race', async () => {
      const uuid = (await insert(message()))!;
      const sent = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          messages.markSent(uuid, 'whatsapp', `wamid.${i}`, at()),
        ),
      );
      expect(sent.filter(Boolean)).toHaveLength(1);
      const stored = (await messages.find(uuid))!;
      expect(stored.status).toBe('sent');
      expect(stored.providerMessageId).toBe(`wamid.${sent.indexOf(true)}`);
      // A late error of a send that already happened changes nothing, nor does a late stop.
      await messages.noteError(uuid, 'whatsapp', 'timeout', at());
      await ctx.dataSource.transaction((manager) => messages.markStopped(manager, uuid, at()));
      expect(await messages.find(uuid)).toMatchObject({ status: 'sent', error: null });
      expect(
        await ctx.dataSource.transaction((manager) =>
          messages.findByProviderId(manager, 'whatsapp', stored.providerMessageId!),
        ),
      ).toMatchObject({ uuid });
    });

    it('goes sent → delivered → read and never back; a read message does not fail', async () => {
      const uuid = (await insert(message()))!;
      expect(await move(uuid, 'delivered')).toBe(false); // not sent yet
      expect(await statusOf(uuid)).toBe('queued');
      await messages.markSent(uuid, 'whatsapp', `wamid.${randomUUID()}`, at());
      expect(await move(uuid, 'read')).toBe(true); // a read may come before its delivered
      expect(await move(uuid, 'delivered')).toBe(false);
      expect(await move(uuid, 'failed', 'late failure')).toBe(false);
      expect(await messages.find(uuid)).toMatchObject({ status: 'read', error: null });
      expect(await messages.markSent(uuid, 'whatsapp', 'wamid.again', at())).toBe(false);
    });

    it('fails a message from queued, sent or delivered, once, with its error', async () => {
      const queued = (await insert(message()))!;
      const delivered = (await insert(message()))!;
      await messages.markSent(delivered, 'whatsapp', `wamid.${randomUUID()}`, at());
      expect(await move(delivered, 'delivered')).toBe(true);
      expect(await move(queued, 'failed', 'WhatsApp error 131026')).toBe(true);
      expect(await move(delivered, 'failed', 'WhatsApp error 131049')).toBe(true);
      expect(await messages.find(queued)).toMatchObject({
        status: 'failed',
        error: 'WhatsApp error 131026',
      });
      expect(await statusOf(delivered)).toBe('failed');
      expect(await move(delivered, 'failed', 'again')).toBe(false);
      expect(await move(delivered, 'delivered')).toBe(false);
      expect((await messages.find(delivered))!.error).toBe('WhatsApp error 131049');
    });
  });

  it('lists a business’s log between two instants, newest first, in pages, with the total', async () => {
    const business = randomUUID();
    const times = ['2026-05-01T08:00:00Z', '2026-05-02T08:00:00Z', '2026-05-03T08:00:00Z'];
    const uuids: string[] = [];
    for (const time of times) {
      uuids.push((await insert(message({ businessUuid: business }), new Date(time)))!);
    }
    // Outside: before the span, at its end (excluded), another business.
    await insert(message({ businessUuid: business }), new Date('2026-04-30T23:59:59Z'));
    await insert(message({ businessUuid: business }), new Date('2026-05-04T00:00:00Z'));
    await insert(message(), new Date('2026-05-02T09:00:00Z'));
    const from = new Date('2026-05-01T00:00:00Z');
    const to = new Date('2026-05-04T00:00:00Z');
    const first = await messages.list(business, from, to, 1, 2);
    const second = await messages.list(business, from, to, 2, 2);
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect([...first.rows, ...second.rows].map((row) => row.uuid)).toEqual(uuids.reverse());
  });
});
