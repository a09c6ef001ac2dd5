import { Clock } from '../src/common/clock';
import { MailPort } from '../src/mail/mail.port';
import { OutboxService } from '../src/outbox/outbox.service';
import { OutboxWorker } from '../src/outbox/outbox.worker';
import { OUTBOX_MAX_ATTEMPTS } from '../src/outbox/outbox-retry';
import { createTestDatabase } from './support/database';
import { readMails } from './support/mail';
import { startTestApp, TestApp } from './support/test-app';
import { serverOnly } from './support/server-only';

interface Row {
  uuid: string;
  kind: string;
  status: string;
  attempts: number;
  available_at: Date;
  last_error: string | null;
  sent_at: Date | null;
}

// R25: mail through the outbox.
describe('outbox delivery', () => {
  let t: TestApp;
  let worker: OutboxWorker;
  let clock: Clock;
  let send: jest.SpyInstance;

  const rowsTo = (to: string): Promise<Row[]> =>
    t.dataSource.query(
      `SELECT uuid, kind, status, attempts, available_at, last_error, sent_at
         FROM outbox WHERE payload->>'to' = $1 ORDER BY created_at`,
      [to],
    );

  const enqueue = (to: string, extra: object = {}) =>
    t.dataSource.transaction((manager) =>
      t.app.get(OutboxService).enqueueMail(manager, {
        to,
        subject: `Hello ${to}`,
        text: `Text for ${to}`,
        ...extra,
      }),
    );

  beforeAll(async () => {
    t = await startTestApp();
    worker = t.app.get(OutboxWorker);
    clock = t.app.get(Clock);
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    // Leave nothing due from an earlier test, then watch the transport.
    clock.reset();
    await worker.drain();
    send = jest.spyOn(t.app.get(MailPort), 'send');
  });
  afterEach(() => {
    send.mockRestore();
    clock.reset();
  });

  it('delivers a committed mail once and marks it sent', async () => {
    await enqueue('a@example.test', { html: '<p>Hi</p>' });
    await worker.drain();
    await worker.drain();
    const calls = send.mock.calls.filter(([mail]) => mail.to === 'a@example.test');
    expect(calls).toEqual([
      [
        {
          to: 'a@example.test',
          subject: 'Hello a@example.test',
          text: 'Text for a@example.test',
          html: '<p>Hi</p>',
          messageId: expect.stringMatching(/^<outbox-[0-9a-f-]{36}@localhost>$/),
        },
      ],
    ]);
    const [row] = await rowsTo('a@example.test');
    expect(calls[0][0].messageId).toBe(`<outbox-${row.uuid}@localhost>`);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row.sent_at).toBeInstanceOf(Date);
    const [mail] = await readMails(t, 'A@EXAMPLE.TEST');
    expect(mail).toMatchObject({ to: 'a@example.test', status: 'sent', html: '<p>Hi</p>' });
  });

  it('writes nothing when the transaction that enqueued rolls back', async () => {
    await expect(
      t.dataSource.transaction(async (manager) => {
        await t.app.get(OutboxService).enqueueMail(manager, {
          to: 'rolled-back@example.test',
          subject: 's',
          text: 't',
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await worker.drain();
    expect(await rowsTo('rolled-back@example.test')).toEqual([]);
    expect(send.mock.calls.some(([mail]) => mail.to === 'rolled-back@example.test')).toBe(false);
  });

  it('retries a failed delivery after a back-off, not before', async () => {
    send.mockRejectedValueOnce(new Error('421 service not available'));
    await enqueue('retry@example.test');
    await worker.drain();
    let [row] = await rowsTo('retry@example.test');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(row.last_error).toContain('421 service not available');
    const delay = new Date(row.available_at).getTime() - clock.nowMs();
    expect(delay).toBeGreaterThan(20_000);
    expect(delay).toBeLessThanOrEqual(36_000);

    await worker.drain();
    expect(send.mock.calls.filter(([mail]) => mail.to === 'retry@example.test')).toHaveLength(1);

    clock.advance(40_000);
    await worker.drain();
    [row] = await rowsTo('retry@example.test');
    expect(row).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(send.mock.calls.filter(([mail]) => mail.to === 'retry@example.test')).toHaveLength(2);
  });

  it(`gives up after ${OUTBOX_MAX_ATTEMPTS} attempts and keeps the row as failed`, async () => {
    send.mockImplementation(async (mail) => {
      if (mail.to === 'never@example.test') throw new Error('550 mailbox unavailable');
    });
    await enqueue('never@example.test');
    for (let round = 0; round < OUTBOX_MAX_ATTEMPTS + 3; round += 1) {
      await worker.drain();
      clock.advance(2 * 60 * 60_000);
    }
    const [row] = await rowsTo('never@example.test');
    expect(row).toMatchObject({ status: 'failed', attempts: OUTBOX_MAX_ATTEMPTS, sent_at: null });
    expect(row.last_error).toContain('550 mailbox unavailable');
    expect(send.mock.calls.filter(([mail]) => mail.to === 'never@example.test')).toHaveLength(
      OUTBOX_MAX_ATTEMPTS,
    );
  });

  it('fails a malformed mail at once instead of retrying it', async () => {
    await t.dataSource.query(`INSERT INTO outbox (kind, payload) VALUES ('mail', $1::jsonb)`, [
      JSON.stringify({ to: 'malformed@example.test', subject: 42 }),
    ]);
    await worker.drain();
    const [row] = await rowsTo('malformed@example.test');
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row.last_error).toMatch(/subject/);
    expect(send.mock.calls.some(([mail]) => mail.to === 'malformed@example.test')).toBe(false);
  });

  it('hands other kinds to their registered handler', async () => {
    const seen: Array<Record<string, unknown>> = [];
    worker.registerHandler('realtime', async (payload) => {
      seen.push(payload);
    });
    await t.dataSource.transaction((manager) =>
      t.app.get(OutboxService).enqueueRealtime(manager, { to: 'rt', event: 'order.created' }),
    );
    await worker.drain();
    expect(seen).toEqual([{ to: 'rt', event: 'order.created' }]);
    const [row] = await rowsTo('rt');
    expect(row).toMatchObject({ kind: 'realtime', status: 'sent' });
  });

  it('keeps a row of a kind nobody handles pending, with the reason', async () => {
    await t.dataSource.query(
      `INSERT INTO outbox (kind, payload) VALUES ('unknown-kind', $1::jsonb)`,
      [JSON.stringify({ to: 'nobody' })],
    );
    await worker.drain();
    const [row] = await rowsTo('nobody');
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.last_error).toContain('no handler registered');
  });

  it('finishes the delivery in progress before the application closes', async () => {
    const otherDatabase = await createTestDatabase();
    const other = await startTestApp({}, { database: otherDatabase });
    try {
      let finished = false;
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      other.app.get(OutboxWorker).registerHandler('realtime', async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
      });
      await other.dataSource.transaction((manager) =>
        other.app.get(OutboxService).enqueueRealtime(manager, { to: 'slow' }),
      );
      // The commit woke the lane: the delivery runs when the application starts closing.
      await running;
      await other.app.close();
      expect(finished).toBe(true);
      // Marked sent before the database closed.
      const reopened = await startTestApp({}, { database: otherDatabase });
      try {
        const [row] = await reopened.dataSource.query(
          `SELECT status, attempts FROM outbox WHERE payload->>'to' = 'slow'`,
        );
        expect(row).toEqual({ status: 'sent', attempts: 1 });
      } finally {
        await reopened.close();
      }
    } finally {
      await other.close().catch(() => undefined);
      await otherDatabase.drop();
    }
  });

  serverOnly('delivers each row exactly once when two replicas drain together', async () => {
    const replica = await startTestApp(
      {},
      { database: { env: { DATABASE_URL: t.config.databaseUrl! }, drop: async () => {} } },
    );
    try {
      const delivered: string[] = [];
      const record = async (payload: Record<string, unknown>) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        delivered.push(String(payload.to));
      };
      worker.registerHandler('realtime', record);
      replica.app.get(OutboxWorker).registerHandler('realtime', record);
      await t.dataSource.transaction(async (manager) => {
        for (let i = 0; i < 60; i += 1) {
          await t.app.get(OutboxService).enqueueRealtime(manager, { to: `twice-${i}` });
        }
      });
      await Promise.all([worker.drain(), replica.app.get(OutboxWorker).drain()]);
      expect(delivered).toHaveLength(60);
      expect(new Set(delivered).size).toBe(60);
    } finally {
      await replica.close();
    }
  });
});
