import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Clock } from '../src/common/clock';
import { LEASE_RENEW_MS, OUTBOX_LEASE_MS } from '../src/outbox/outbox.worker';
import { registerBody } from './support/account';
import { expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The outbox lease is short, so a slow delivery renews it while it runs:
 * another process never takes a row that is still being sent.
 */
describe('outbox lease during a slow send', () => {
  let smtp: SMTPServer;
  let t: TestApp;
  let answer: (() => void) | undefined;
  let arrived: () => void;
  const waiting = new Promise<void>((resolve) => (arrived = resolve));

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          // Hold the answer until the test lets it go.
          answer = () => callback();
          arrived();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;
    t = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Menu Service <no-reply@menu.example>',
    });
  });

  afterAll(async () => {
    answer?.();
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('is at most a minute, and renewed while the SMTP server takes its time', async () => {
    const user = registerBody();
    expectOk(await t.http.post(`${t.core}/user/register`).set(apiHeaders(t)).send(user), 201);
    expectOk(
      await t.http
        .post(`${t.core}/user/reset-password`)
        .set(apiHeaders(t))
        .send({ email_address: user.email }),
    );
    await waiting;
    const leaseOf = async () => {
      const [row] = await t.dataSource.query(
        `SELECT uuid, status, attempts, available_at, now() AS db_now FROM outbox
          WHERE payload->>'to' = $1 ORDER BY created_at LIMIT 1`,
        [user.email],
      );
      return row as {
        uuid: string;
        status: string;
        attempts: number;
        available_at: Date;
        db_now: Date;
      };
    };
    const first = await leaseOf();
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(new Date(first.available_at).getTime()).toBeLessThanOrEqual(
      new Date(first.db_now).getTime() + OUTBOX_LEASE_MS,
    );

    // Still sending when the renewal falls due (the service's clock moved
    // on): the lease moves on before it runs out.
    const clock = t.app.get(Clock);
    let renewed = first;
    try {
      clock.advance(LEASE_RENEW_MS);
      while (new Date(renewed.available_at).getTime() <= new Date(first.available_at).getTime()) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        renewed = await leaseOf();
      }
    } finally {
      clock.reset();
    }
    expect(renewed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(new Date(renewed.available_at).getTime()).toBeGreaterThanOrEqual(
      new Date(first.available_at).getTime() + LEASE_RENEW_MS,
    );

    answer!();
    let done = renewed;
    while (done.status === 'pending') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = await leaseOf();
    }
    // Sent by the attempt that was running, not taken over by a second one.
    expect(done).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
