import { OutboxWorker } from '../../src/outbox/outbox.worker';
import { TestApp } from './test-app';

/** A mail as the service wrote it into the outbox (the local mailbox tests read). */
export interface OutboxMail {
  uuid: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  createdAt: Date;
}

/** Delivers every due outbox row now, instead of waiting for the worker's next poll. */
export async function drainOutbox(t: TestApp): Promise<number> {
  return t.app.get(OutboxWorker).drain();
}

/** Mails in the outbox, oldest first; only those to `to` (any letter case) when given. */
export async function readMails(t: TestApp, to?: string): Promise<OutboxMail[]> {
  const rows: Array<{
    uuid: string;
    payload: { to: string; subject: string; text: string; html?: string };
    status: OutboxMail['status'];
    attempts: number;
    created_at: Date;
  }> = await t.dataSource.query(
    `SELECT uuid, payload, status, attempts, created_at FROM outbox
      WHERE kind = 'mail' AND ($1::text IS NULL OR lower(payload->>'to') = lower($1))
      ORDER BY created_at, uuid`,
    [to ?? null],
  );
  return rows.map((row) => ({
    uuid: row.uuid,
    to: row.payload.to,
    subject: row.payload.subject,
    text: row.payload.text,
    html: row.payload.html ?? null,
    status: row.status,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
  }));
}

/** The newest mail to `to` whose subject matches, delivered first; fails the test when there is none. */
export async function lastMailTo(t: TestApp, to: string, subject?: RegExp): Promise<OutboxMail> {
  await drainOutbox(t);
  const mails = (await readMails(t, to)).filter((mail) => !subject || subject.test(mail.subject));
  const last = mails.at(-1);
  if (!last) throw new Error(`No mail to ${to}${subject ? ` matching ${subject}` : ''}`);
  return last;
}

/**
 * The one-time code in a mail's text (digits, at least six), read from the
 * line that ends in it ("…code: 12345678"): a greeting may hold digits too.
 */
export function tokenIn(mail: OutboxMail): string {
  const match = /:\s*(\d{6,})\s*$/m.exec(mail.text);
  if (!match) throw new Error(`No token in mail "${mail.subject}": ${mail.text}`);
  return match[1];
}

/** How many mails went to `to` so far. */
export async function countMails(t: TestApp, to: string): Promise<number> {
  return (await readMails(t, to)).length;
}
