import { OutboxService } from '../src/outbox/outbox.service';
import { Client } from 'pg';
import { OUTBOX_CHANNEL, OutboxSignal } from '../src/outbox/outbox-signal';
import { createTestDatabase, serverUrl, TestDatabase } from './support/database';
import { Catalog, newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { orderBody, placeOrder } from './support/order';
import { SmtpSink } from './support/smtp-sink';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

/** The receiver that takes 9 s to answer each request, one below the 10 s limit. */
const SLOW_MS = 9_000;
const SLOW_BACKLOG = 50;
const PER_ENDPOINT = 2;
const MAIL_LANE = 3;

function sample(text: string, name: string, labels: string): number | undefined {
  const head = `${name}{${labels}} `;
  const line = text.split('\n').find((entry) => entry.startsWith(head));
  return line === undefined ? undefined : Number(line.slice(head.length));
}

/** Resolves once `done()` holds (checked every 20 ms); rejects naming `what` after 20 s. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function createWebhook(t: TestApp, user: TestUser, url: string, business: string) {
  return expectOk(
    await t.http
      .post(`${t.core}/webhooks`)
      .set(user.headers)
      .send({ url, events: ['order.created', 'ping'], business_uuid: business }),
    201,
  );
}

/**
 * The outbox delivers in lanes (mail, webhook, message), each with bounded
 * concurrency and at most a few attempts in flight per receiver, and a
 * commit wakes the lane of its rows at once. The poll is set to ten minutes
 * here, so everything that arrives in this file arrived through the wake-up.
 */
// R77: one receiver never holds back another.
describe('outbox lanes', () => {
  let database: TestDatabase;
  let t: TestApp;
  let smtp: SmtpSink;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    await receiver.start();
    database = await createTestDatabase();
    t = await startTestApp(
      {
        SMTP_URL: smtp.url(),
        MAIL_FROM: 'Menu Service <no-reply@menu.example>',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        OUTBOX_POLL_INTERVAL_MS: '600000',
        OUTBOX_WEBHOOK_PER_ENDPOINT: String(PER_ENDPOINT),
        OUTBOX_MAIL_CONCURRENCY: String(MAIL_LANE),
        RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      },
      { database },
    );
  });

  afterAll(async () => {
    smtp?.releaseStalled();
    receiver.answerHeldNow();
    await t?.close();
    await database?.drop();
    await receiver.stop();
    await smtp?.close();
  });

  it('wakes a lane once per transaction, after the commit, and not for a rollback', async () => {
    const heard: string[] = [];
    const stop = t.app.get(OutboxSignal).onDue((lane) => heard.push(lane));
    // On a server the wake-up is a NOTIFY that every process hears: a connection of its own listens.
    const listener = serverUrl() ? new Client({ connectionString: t.config.databaseUrl }) : null;
    const notified: string[] = [];
    if (listener) {
      await listener.connect();
      listener.on('notification', (message) => notified.push(message.payload ?? ''));
      await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
    }
    try {
      const outbox = t.app.get(OutboxService);
      await t.dataSource.transaction(async (manager) => {
        for (let i = 0; i < 3; i += 1) {
          await outbox.enqueueMail(manager, {
            to: `wake-${i}@example.test`,
            subject: 's',
            text: 't',
          });
        }
        // Not committed yet: nobody may look for the rows.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(heard).toEqual([]);
      });
      await until(() => heard.length > 0, 'the wake-up');
      await expect(
        t.dataSource.transaction(async (manager) => {
          await outbox.enqueueMail(manager, { to: 'never@example.test', subject: 's', text: 't' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // A later commit's wake-up comes after any the rollback could have caused.
      await t.dataSource.transaction((manager) =>
        outbox.enqueueRealtime(manager, { to: 'marker' }),
      );
      await until(() => heard.includes('message'), 'the marker');
      expect(heard).toEqual(['mail', 'message']);
      if (listener) {
        await until(() => notified.includes('message'), 'the NOTIFY');
        expect(notified).toEqual(['mail', 'message']);
      }
    } finally {
      stop();
      await listener?.end();
    }
  });

  it('sends a row within a second of its commit, without waiting for the poll', async () => {
    const user = await createUser(t);
    const sent = performance.now();
    expectOk(
      await t.http
        .post(`${t.core}/user/reset-password`)
        .set(apiHeaders(t))
        .send({ email_address: user.email }),
    );
    await smtp.until(() => smtp.to(user.email).length > 0, 'the reset mail');
    expect(smtp.to(user.email)[0].at - sent).toBeLessThan(1000);

    const catalog = await newCatalog(t, user);
    const endpoint = await createWebhook(t, user, receiver.url('/ping'), catalog.business.uuid);
    const pinged = performance.now();
    expectOk(await t.http.post(`${t.core}/webhooks/${endpoint.uuid}/ping`).set(user.headers), 202);
    await receiver.until('/ping', 1);
    expect(receiver.at('/ping')[0].at - pinged).toBeLessThan(1000);
  });

  it("keeps another business's mail and webhook within 2 s while one endpoint takes 9 s a request", async () => {
    const slowOwner = await createUser(t);
    const slowCatalog = await newCatalog(t, slowOwner);
    const slow = await createWebhook(
      t,
      slowOwner,
      receiver.url('/slow'),
      slowCatalog.business.uuid,
    );
    const owner = await createUser(t);
    const catalog: Catalog = await newCatalog(t, owner);
    await createWebhook(t, owner, receiver.url('/fast'), catalog.business.uuid);

    // The backlog: its first two requests are held while the rest is written (however long
    // that takes), then every answer comes 9 s after the other business's order, or later.
    receiver.slowPaths.set('/slow', Infinity);
    for (let i = 0; i < SLOW_BACKLOG; i += 1) await placeOrder(t, orderBody(slowCatalog));
    await receiver.until('/slow', PER_ENDPOINT);
    receiver.slowPaths.set('/slow', SLOW_MS);
    receiver.answerHeldAfter('/slow', SLOW_MS);
    const placed = performance.now();
    const order = await placeOrder(t, orderBody(catalog));
    await Promise.all([
      smtp.until(() => smtp.to(owner.email).length > 0, "the other owner's mail"),
      receiver.until('/fast', 1),
    ]);
    const mailAfter = smtp.to(owner.email)[0].at - placed;
    const webhookAfter = receiver.at('/fast')[0].at - placed;
    expect(mailAfter).toBeLessThan(2000);
    expect(webhookAfter).toBeLessThan(2000);
    expect(JSON.parse(receiver.at('/fast')[0].body).data.order.uuid).toBe(order.uuid);

    // The slow endpoint holds its two slots and no more; its other deliveries wait their turn.
    const recorded = async () =>
      (
        await t.dataSource.query(
          `SELECT count(*)::int AS n FROM outbox
            WHERE kind = 'webhook' AND status = 'pending' AND receiver <> $1`,
          [slow.uuid],
        )
      )[0].n === 0;
    await until(recorded, "the other endpoint's attempt to be recorded");
    expect(receiver.at('/slow')).toHaveLength(PER_ENDPOINT);
    expect(receiver.mostWaitingAt('/slow')).toBe(PER_ENDPOINT);
    const [waiting] = await t.dataSource.query(
      `SELECT count(*) FILTER (WHERE attempts = 0)::int AS untried,
              count(*) FILTER (WHERE attempts = 1)::int AS in_flight
         FROM outbox WHERE kind = 'webhook' AND status = 'pending' AND receiver = $1`,
      [slow.uuid],
    );
    expect(waiting).toEqual({ untried: SLOW_BACKLOG - PER_ENDPOINT, in_flight: PER_ENDPOINT });

    // What an operator sees: the webhook lane's backlog, its age, and the endpoint at its cap.
    const metrics = (await t.http.get('/metrics')).text;
    expect(sample(metrics, 'outbox_lane_due', 'lane="webhook"')).toBe(SLOW_BACKLOG - PER_ENDPOINT);
    expect(sample(metrics, 'outbox_lane_in_flight', 'lane="webhook"')).toBe(PER_ENDPOINT);
    expect(sample(metrics, 'outbox_lane_receivers_at_cap', 'lane="webhook"')).toBe(1);
    expect(sample(metrics, 'outbox_lane_oldest_due_seconds', 'lane="webhook"')).toBeGreaterThan(0);
    expect(sample(metrics, 'outbox_lane_concurrency', 'lane="webhook"')).toBe(16);
    expect(sample(metrics, 'outbox_lane_due', 'lane="mail"')).toBe(0);
    expect(sample(metrics, 'outbox_deliveries_total', 'lane="mail",result="sent"')).toBeGreaterThan(
      SLOW_BACKLOG,
    );

    // Once the receiver answers, its deliveries go on, two at a time.
    receiver.slowPaths.delete('/slow');
    receiver.answerHeldNow();
    await receiver.until('/slow', SLOW_BACKLOG, 30_000);
    expect(new Set(receiver.at('/slow').map((r) => r.headers['webhook-id'])).size).toBe(
      SLOW_BACKLOG,
    );
  });

  it('has at most the mail lane’s concurrency in flight, and claims no row it cannot start', async () => {
    smtp.stall = true;
    const outbox = t.app.get(OutboxService);
    const to = Array.from({ length: 10 }, (_, i) => `bounded-${i}@example.test`);
    await t.dataSource.transaction(async (manager) => {
      for (const address of to) {
        await outbox.enqueueMail(manager, { to: address, subject: 's', text: 't' });
      }
    });
    await smtp.until(() => smtp.stalled.length === MAIL_LANE, 'the lane to fill');
    const claimed = async () =>
      (
        await t.dataSource.query(
          `SELECT count(*) FILTER (WHERE attempts > 0)::int AS n FROM outbox
            WHERE payload->>'to' = ANY($1)`,
          [to],
        )
      )[0].n;
    expect(await claimed()).toBe(MAIL_LANE);

    smtp.stall = false;
    smtp.releaseStalled();
    const rowsOf = (): Promise<Array<{ status: string; attempts: number }>> =>
      t.dataSource.query(`SELECT status, attempts FROM outbox WHERE payload->>'to' = ANY($1)`, [
        to,
      ]);
    await until(async () => (await rowsOf()).every((row) => row.status === 'sent'), 'every mail');
    const rows = await rowsOf();
    expect(rows).toEqual(to.map(() => ({ status: 'sent', attempts: 1 })));
    expect(to.map((address) => smtp.to(address).length)).toEqual(to.map(() => 1));
  });
});
