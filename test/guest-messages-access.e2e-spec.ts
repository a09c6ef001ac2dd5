import { Clock } from '../src/common/clock';
import { entityPath } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { FakeTermii, FakeTwilio } from './support/fake-message-providers';
import {
  drainMessages,
  GUEST_PHONE,
  guestMessagesSetting,
  messagingCatalog,
  moveOrder,
  placeConsentedOrder,
  storedMessages,
} from './support/guest-messages';
import { newTeam, Team } from './support/team';
import { guestHeaders } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

describe('guest messages: the stop, the monthly limit, the log and its roles', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    // No WhatsApp provider: that channel writes to the log.
    t = await startTestApp();
    owner = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const stopPath = (orderUuid: string) => `${t.orders}/order/${orderUuid}/messages/stop`;
  const logPath = (businessUuid: string) => `${t.core}/businesses/${businessUuid}/messages`;

  // R101: with no provider configured, the message is written to the log and kept as sent.
  it('sends through the log transport when no provider is configured', async () => {
    const catalog = await messagingCatalog(t, owner);
    const order = await placeConsentedOrder(t, catalog);
    await moveOrder(t, owner, order.uuid, 'accepted');
    await drainMessages(t);
    const [message] = await storedMessages(t, order.uuid);
    expect(message).toMatchObject({ channel: 'whatsapp', status: 'sent', provider: 'log' });
    expect(message.parameters.at(-1)).toContain(order.order_token);
  });

  describe('the stop route', () => {
    // R104: the guest stops messages to their number from this business, for good.
    it('stops messages to the number from this business, for good', async () => {
      const catalog = await messagingCatalog(t, owner);
      const first = await placeConsentedOrder(t, catalog);
      const res = await t.http
        .post(stopPath(first.uuid))
        .set({ ...guestHeaders(t), 'x-order-token': first.order_token });
      expect(expectOk(res)).toEqual({
        to: '+*******4567'.replace('*******', '*'.repeat(GUEST_PHONE.length - 5)),
        business_uuid: catalog.business.uuid,
        stopped: true,
      });
      await moveOrder(t, owner, first.uuid, 'accepted');
      await drainMessages(t);
      const second = await placeConsentedOrder(t, catalog);
      await moveOrder(t, owner, second.uuid, 'accepted');
      await drainMessages(t);
      expect((await storedMessages(t, first.uuid)).map((m) => m.status)).toEqual(['stopped']);
      expect((await storedMessages(t, second.uuid)).map((m) => m.status)).toEqual(['stopped']);
      // Another business still reaches the number.
      const other = await messagingCatalog(t, owner);
      const third = await placeConsentedOrder(t, other);
      await moveOrder(t, owner, third.uuid, 'accepted');
      await drainMessages(t);
      expect((await storedMessages(t, third.uuid)).map((m) => m.status)).toEqual(['sent']);
    });

    it('is 404 with a wrong or missing token, and stops nothing', async () => {
      const catalog = await messagingCatalog(t, owner);
      const order = await placeConsentedOrder(t, catalog);
      const stops = async () =>
        Number(
          (await t.dataSource.query(`SELECT count(*)::int AS n FROM guest_message_stops`))[0].n,
        );
      const before = await stops();
      expectError(
        await t.http
          .post(stopPath(order.uuid))
          .set({ ...guestHeaders(t), 'x-order-token': 'nope' }),
        404,
        'NOT_FOUND',
      );
      expectError(await t.http.post(stopPath(order.uuid)).set(guestHeaders(t)), 404, 'NOT_FOUND');
      expect(await stops()).toBe(before);
    });
  });

  // R105: past the monthly limit nothing is sent; the owner is told once a month.
  it('skips messages past the monthly limit, counting a month of the business, and tells the owner once', async () => {
    const limited = await createUser(t);
    const catalog = await messagingCatalog(t, limited, guestMessagesSetting({ monthly_limit: 1 }));
    const orders = [];
    for (let i = 0; i < 3; i++) orders.push(await placeConsentedOrder(t, catalog, 'sms'));
    for (const order of orders) await moveOrder(t, limited, order.uuid, 'accepted');
    await drainMessages(t);
    const statuses = [];
    for (const order of orders) statuses.push((await storedMessages(t, order.uuid))[0].status);
    expect(statuses).toEqual(['sent', 'skipped_limit', 'skipped_limit']);
    const notices = await t.dataSource.query(
      `SELECT kind FROM notifications WHERE user_uuid = $1 AND kind = 'guest_messages.limit_reached'`,
      [limited.uuid],
    );
    expect(notices).toHaveLength(1);
    // Next month the count starts again.
    const clock = t.app.get(Clock);
    clock.advance(32 * 86_400_000);
    try {
      const later = await placeConsentedOrder(t, catalog, 'sms');
      await moveOrder(t, limited, later.uuid, 'accepted');
      await drainMessages(t);
      expect((await storedMessages(t, later.uuid))[0].status).toBe('sent');
    } finally {
      clock.advance(-32 * 86_400_000);
    }
  });

  describe('the message log', () => {
    let team: Team;
    let orderUuid: string;

    beforeAll(async () => {
      team = await newTeam(t);
      await t.http
        .put(entityPath(t, 'business', team.catalog.business.uuid))
        .set(team.owner.headers)
        .send({
          extra_data: {
            ...team.catalog.business.extra_data,
            guest_messages: guestMessagesSetting(),
          },
        });
      const res = await t.http
        .get(entityPath(t, 'business', team.catalog.business.uuid))
        .set(team.owner.headers);
      expect(expectOk(res).extra_data.guest_messages).toBeDefined();
      const order = await placeConsentedOrder(t, {
        ...team.catalog,
        items: [team.catalog.items[0]],
      });
      orderUuid = order.uuid;
      await moveOrder(t, team.owner, order.uuid, 'accepted');
      await drainMessages(t);
    });

    // R102: the setting is checked when written, and only the owner writes it.
    it('refuses a bad guest_messages setting with 400 naming its path, and a manager’s with 403', async () => {
      const path = entityPath(t, 'business', team.catalog.business.uuid);
      const stored = async () =>
        expectOk(await t.http.get(path).set(team.owner.headers)).extra_data.guest_messages;
      const before = await stored();
      for (const [setting, field] of [
        [{ channels: ['pigeon'], events: ['ready'] }, 'channels'],
        [{ channels: ['sms'], events: [] }, 'events'],
        [{ channels: ['sms'], events: ['ready'], monthly_limit: -1 }, 'monthly_limit'],
      ] as const) {
        const res = await t.http
          .put(path)
          .set(team.owner.headers)
          .send({ extra_data: { ...team.catalog.business.extra_data, guest_messages: setting } });
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(
          `extra_data.guest_messages.${field}`,
        );
      }
      const manager = await t.http
        .put(path)
        .set(team.manager.headers)
        .send({
          extra_data: {
            ...team.catalog.business.extra_data,
            guest_messages: guestMessagesSetting({ monthly_limit: 5 }),
          },
        });
      expectError(manager, 403, 'FORBIDDEN');
      expect(await stored()).toEqual(before);
    });

    // R106: the log for the owner and managers; staff 403; another business's 404.
    it('answers the owner and a manager, the number masked but its last four digits', async () => {
      for (const user of [team.owner, team.manager]) {
        const res = await t.http.get(logPath(team.catalog.business.uuid)).set(user.headers);
        const rows = expectOk(res);
        expect(res.body.meta).toMatchObject({ page: 1, total: 1 });
        expect(rows).toEqual([
          expect.objectContaining({
            order_uuid: orderUuid,
            event: 'accepted',
            channel: 'whatsapp',
            status: 'sent',
            provider: 'log',
            to: `+${'*'.repeat(GUEST_PHONE.length - 5)}4567`,
          }),
        ]);
        expect(JSON.stringify(res.body)).not.toContain(GUEST_PHONE.slice(1, -4));
      }
    });

    it('refuses staff with 403 and an outsider with 404, and shows the outsider only their own', async () => {
      expectError(
        await t.http.get(logPath(team.catalog.business.uuid)).set(team.staff.headers),
        403,
        'FORBIDDEN',
      );
      expectError(
        await t.http.get(logPath(team.catalog.business.uuid)).set(team.outsider.headers),
        404,
        'NOT_FOUND',
      );
      const own = await t.http.get(logPath(team.other.business.uuid)).set(team.outsider.headers);
      expect(expectOk(own)).toEqual([]);
      expectError(
        await t.http.get(logPath(team.other.business.uuid)).set(team.owner.headers),
        404,
        'NOT_FOUND',
      );
    });

    it('takes local dates from and to, and refuses a range that runs backwards', async () => {
      const path = logPath(team.catalog.business.uuid);
      const past = await t.http
        .get(path)
        .query({ from: '2020-01-01', to: '2020-01-31' })
        .set(team.owner.headers);
      expect(expectOk(past)).toEqual([]);
      expect(past.body.meta).toMatchObject({ from: '2020-01-01', to: '2020-01-31', total: 0 });
      expectError(
        await t.http
          .get(path)
          .query({ from: '2020-02-01', to: '2020-01-01' })
          .set(team.owner.headers),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await t.http.get(path).query({ from: 'yesterday' }).set(team.owner.headers),
        400,
        'VALIDATION_FAILED',
      );
    });
  });
});

describe('guest messages by Twilio', () => {
  let t: TestApp;
  let twilio: FakeTwilio;
  let termii: FakeTermii;
  let owner: TestUser;

  beforeAll(async () => {
    twilio = await new FakeTwilio().start();
    termii = await new FakeTermii().start();
    t = await startTestApp({ ...twilio.env(), ...termii.env(), SMS_PROVIDER: 'twilio' });
    owner = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.stop();
    await termii?.stop();
  });

  it('sends SMS by Twilio when SMS_PROVIDER chooses it of the two', async () => {
    const catalog = await messagingCatalog(t, owner, guestMessagesSetting({ channels: ['sms'] }));
    const order = await placeConsentedOrder(t, catalog, 'sms');
    await moveOrder(t, owner, order.uuid, 'accepted');
    await drainMessages(t);
    expect(termii.calls).toHaveLength(0);
    expect(twilio.calls.length).toBeGreaterThan(0);
    const call = twilio.calls[0];
    expect(call.path).toBe(`/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`);
    expect(call.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(call.body).toMatchObject({ To: GUEST_PHONE, From: '+15005550006' });
    const [message] = await storedMessages(t, order.uuid);
    expect(message.provider).toBe('twilio');
    expect(message.provider_message_id).toMatch(/^SM/);
  });

  it('fails for good on 21211 with the number masked in the stored error, and has no next channel', async () => {
    twilio.mode = 'undeliverable';
    const catalog = await messagingCatalog(t, owner, guestMessagesSetting({ channels: ['sms'] }));
    const order = await placeConsentedOrder(t, catalog, 'sms');
    await moveOrder(t, owner, order.uuid, 'accepted');
    await drainMessages(t);
    const messages = await storedMessages(t, order.uuid);
    expect(messages.map((m) => m.status)).toEqual(['failed']);
    expect(messages[0].error).toContain('21211');
    expect(messages[0].error).not.toContain(GUEST_PHONE.slice(1, -4));
    twilio.mode = 'ok';
  });
});
