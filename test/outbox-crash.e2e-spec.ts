import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Clock } from '../src/common/clock';
import { OUTBOX_LEASE_MS } from '../src/outbox/outbox.worker';
import { registerBody } from './support/account';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { drainOutbox } from './support/mail';
import { startTestApp, TEST_API_KEY, TestApp } from './support/test-app';

interface Received {
  to: string[];
  messageId: string;
}

function messageIdOf(raw: string): string {
  return /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '';
}

/**
 * A worker killed in the middle of an SMTP delivery: the row it had claimed
 * is sent by the next process once its short lease ends, with the same
 * Message-ID as the interrupted attempt, so the receiving side sees one
 * message even if the first attempt had in fact arrived.
 */
describe('outbox after a crash mid-send', () => {
  let smtp: SMTPServer;
  let smtpPort: number;
  let database: TestDatabase;
  let child: ChildService | undefined;
  let t: TestApp | undefined;
  /** While true the SMTP server takes the message and never answers it. */
  let stall = true;
  const received: Received[] = [];
  let firstAttempt: (value: Received) => void;
  const stalled = new Promise<Received>((resolve) => (firstAttempt = resolve));

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const mail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            messageId: messageIdOf(Buffer.concat(chunks).toString('utf8')),
          };
          if (stall) {
            firstAttempt(mail);
            return; // No answer: the sender waits for one.
          }
          received.push(mail);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await child?.kill('SIGKILL');
    await t?.close();
    await database?.drop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the mail after the restart, within the lease, with the same Message-ID', async () => {
    const mailEnv = {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Menu Service <no-reply@menu.example>',
    };
    child = await startChildService({ ...database.env, ...mailEnv });
    await child.ready();
    const user = registerBody();
    const headers = { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY };
    const api = `${child.baseUrl}/public/api/v1/svc/user`;
    expect(
      (await fetch(`${api}/register`, { method: 'POST', headers, body: JSON.stringify(user) }))
        .status,
    ).toBe(201);
    expect(
      (
        await fetch(`${api}/reset-password`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ email_address: user.email }),
        })
      ).status,
    ).toBe(200);

    // The worker claimed the row and is waiting for the SMTP answer: kill it there.
    const interrupted = await stalled;
    expect(interrupted.messageId).toMatch(/^<outbox-[0-9a-f-]{36}@menu\.example>$/);
    const killedAt = Date.now();
    expect(await child.kill('SIGKILL')).toBe('SIGKILL');
    child = undefined;

    stall = false;
    t = await startTestApp(mailEnv, { database });
    const [row] = await t.dataSource.query(
      `SELECT uuid, status, attempts, available_at FROM outbox
        WHERE payload->>'to' = $1 ORDER BY created_at LIMIT 1`,
      [user.email],
    );
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(interrupted.messageId).toBe(`<outbox-${row.uuid}@menu.example>`);
    // The dead process's lease ends at most one lease after it was last renewed.
    expect(new Date(row.available_at).getTime()).toBeLessThanOrEqual(killedAt + OUTBOX_LEASE_MS);

    // Still leased: the new process leaves the row alone.
    await drainOutbox(t);
    expect(received.filter((mail) => mail.messageId === interrupted.messageId)).toEqual([]);

    // Once the lease has run out (the service clock moved past it), it is sent.
    t.app.get(Clock).set(new Date(new Date(row.available_at).getTime() + 1000));
    await drainOutbox(t);
    const delivered = received.filter((mail) => mail.messageId === interrupted.messageId);
    expect(delivered).toEqual([{ to: [user.email], messageId: interrupted.messageId }]);
    const [after] = await t.dataSource.query(
      'SELECT status, attempts FROM outbox WHERE uuid = $1',
      [row.uuid],
    );
    expect(after).toEqual({ status: 'sent', attempts: 2 });
  });
});
