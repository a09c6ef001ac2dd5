import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { Clock } from '../src/common/clock';
import { OUTBOX_LEASE_MS } from '../src/outbox/outbox.worker';
import { registerBody } from './support/account';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { drainOutbox } from './support/mail';
import { SmtpSink } from './support/smtp-sink';
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

/**
 * kill -9 in the middle of draining a backlog: every mail the relay accepted
 * had been marked sent (a lane slot frees only once its row's outcome is
 * written), the attempts that were hanging are sent again once their lease
 * ends, with their Message-ID, and every other row by the next process. Each
 * mail reaches the relay exactly once; none is lost.
 */
describe('outbox killed mid-drain', () => {
  const MAILS = 120;
  const LANE = 4;
  let smtp: SmtpSink;
  let database: TestDatabase;
  let child: ChildService | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    smtp = await SmtpSink.start({ keepBodies: false });
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await child?.kill('SIGKILL');
    await t?.close();
    await database?.drop();
    await smtp?.close();
  });

  it('loses and duplicates nothing', async () => {
    const env = {
      SMTP_URL: smtp.url(),
      MAIL_FROM: 'Menu Service <no-reply@menu.example>',
      OUTBOX_MAIL_CONCURRENCY: String(LANE),
      RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    };
    child = await startChildService({ ...database.env, ...env });
    await child.ready();
    const user = registerBody();
    const headers = { 'content-type': 'application/json', 'x-api-key': TEST_API_KEY };
    const api = `${child.baseUrl}/public/api/v1/svc/user`;
    const post = (path: string, body: object) =>
      fetch(`${api}/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect((await post('register', user)).status).toBe(201);

    // A backlog: the relay hangs, the lane's slots fill, the rest wait in the outbox.
    smtp.stall = true;
    for (let i = 0; i < MAILS; i += 1) {
      expect((await post('reset-password', { email_address: user.email })).status).toBe(200);
    }
    await smtp.until(() => smtp.stalled.length === LANE, 'the lane to fill');
    // The relay recovers; a while into the drain it hangs again, until every slot hangs.
    smtp.stall = false;
    smtp.releaseStalled();
    await smtp.until(() => smtp.received.length >= MAILS / 3, 'a third of the mails');
    smtp.stall = true;
    await smtp.until(() => smtp.stalled.length === 2 * LANE, 'the lane to hang again');
    expect(await child.kill('SIGKILL')).toBe('SIGKILL');
    child = undefined;
    const hanging = smtp.stalled.slice(LANE).map((mail) => mail.messageId);
    const acceptedBeforeKill = smtp.received.length;
    expect(acceptedBeforeKill).toBeGreaterThanOrEqual(MAILS / 3);

    smtp.stall = false;
    t = await startTestApp(env, { database });
    const rowsOf = async () =>
      (await t!.dataSource.query(
        `SELECT uuid, status, attempts, available_at FROM outbox WHERE payload->>'to' = $1`,
        [user.email],
      )) as Array<{ uuid: string; status: string; attempts: number; available_at: Date }>;
    const idOf = (uuid: string) => `<outbox-${uuid}@menu.example>`;

    // The next process sends everything but the rows still leased by the dead one.
    await drainOutbox(t);
    let rows = await rowsOf();
    expect(rows).toHaveLength(MAILS);
    const leased = rows.filter((row) => row.status === 'pending');
    expect(leased.map((row) => idOf(row.uuid)).sort()).toEqual([...hanging].sort());
    expect(leased.every((row) => row.attempts === 1)).toBe(true);
    expect(smtp.received.some((mail) => hanging.includes(mail.messageId))).toBe(false);

    // Their lease runs out: they are sent, with the Message-ID of the attempt that hung.
    const leaseEnd = Math.max(...leased.map((row) => new Date(row.available_at).getTime()));
    t.app.get(Clock).set(new Date(leaseEnd + 1000));
    await drainOutbox(t);
    rows = await rowsOf();
    expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
    const received = smtp.received.map((mail) => mail.messageId);
    expect(received).toHaveLength(MAILS);
    expect(new Set(received).size).toBe(MAILS);
    expect(new Set(received)).toEqual(new Set(rows.map((row) => idOf(row.uuid))));
    expect(
      rows
        .filter((row) => row.attempts === 2)
        .map((row) => idOf(row.uuid))
        .sort(),
    ).toEqual([...hanging].sort());
  });
});
