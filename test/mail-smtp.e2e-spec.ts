import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Clock } from '../src/common/clock';
import { registerUser } from './support/account';
import { expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { drainOutbox, readMails } from './support/mail';
import { startTestApp, TestApp } from './support/test-app';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/**
 * The SMTP transport against a real SMTP receiver (smtp-server) on loopback:
 * the message a user gets carries the code, and the code works.
 */
describe('mail over SMTP, through the outbox', () => {
  let server: SMTPServer;
  let t: TestApp;
  const received: Received[] = [];
  let refuse: RegExp | undefined;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (refuse?.test(address.address)) {
          const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Menu Service <no-reply@menu.example>',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    });
  });

  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the reset code to the user, and that code resets the password', async () => {
    const user = await registerUser(t);
    expectOk(
      await t.http
        .post(`${t.core}/user/reset-password`)
        .set(apiHeaders(t))
        .send({ email_address: user.email }),
    );
    await drainOutbox(t);

    const message = received.find((mail) => mail.to.includes(user.email));
    expect(message).toBeDefined();
    expect(message!.from).toBe('no-reply@menu.example');
    expect(message!.raw).toMatch(/^Subject: Your password reset code$/m);
    expect(message!.raw).toMatch(/^From: Menu Service <no-reply@menu\.example>$/m);
    expect(message!.raw).toMatch(/^Content-Type: text\/plain/m);
    expect(message!.raw).toMatch(/^Content-Type: text\/html/m);
    const code = /reset your password: (\d{8})\b/.exec(message!.raw)?.[1];
    expect(code).toBeDefined();

    const [row] = await readMails(t, user.email);
    expect(row.status).toBe('sent');

    expectOk(
      await t.http.post(`${t.core}/user/reset-password/validate`).set(apiHeaders(t)).send({
        email_address: user.email,
        token_to_reset_password: code,
        new_password: 'over-smtp-pass',
        new_password_confirmation: 'over-smtp-pass',
      }),
    );
    expectOk(
      await t.http
        .post(`${t.core}/user/login`)
        .set(apiHeaders(t))
        .send({ email: user.email, password: 'over-smtp-pass' }),
    );
  });

  it('keeps a refused message for a retry, and delivers it when the server accepts again', async () => {
    const user = await registerUser(t, { email: `refused-${Date.now()}@example.test` });
    refuse = /^refused-/;
    expectOk(
      await t.http
        .post(`${t.core}/user/reset-password`)
        .set(apiHeaders(t))
        .send({ email_address: user.email }),
    );
    await drainOutbox(t);
    let [row] = await readMails(t, user.email);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    const [{ last_error }] = await t.dataSource.query(
      `SELECT last_error FROM outbox WHERE uuid = $1`,
      [row.uuid],
    );
    expect(last_error).toMatch(/550/);
    expect(received.some((mail) => mail.to.includes(user.email))).toBe(false);

    refuse = undefined;
    t.app.get(Clock).advance(60_000);
    await drainOutbox(t);
    [row] = await readMails(t, user.email);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(received.some((mail) => mail.to.includes(user.email))).toBe(true);
  });
});
