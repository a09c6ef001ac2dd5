/**
 * P18: a backlog of due mails drained by one service process to a local SMTP
 * server (the bench's own, test/support/smtp-sink.ts: smtp-server on
 * 127.0.0.1, keeping only recipients and Message-IDs). The rows are written
 * in one transaction that also sends the outbox's wake-up, as a commit of the
 * service would; the clock runs from that commit until the last row is marked
 * sent, and the relay's side is checked: every mail once, none missing.
 */
import { Client } from 'pg';
import type { SmtpSink } from '../test/support/smtp-sink';
import { log } from './bench-env';
import { waitForOutboxDrain } from './bench-db';
import { sleep } from './processes';

export const DRAIN_MAILS = 3000;
const DRAIN_DEADLINE_MS = 180_000;
const RECIPIENT_DOMAIN = 'drain.bench.example';

export interface MailDrainMeasure {
  mails: number;
  /** From the commit to the last row marked sent. */
  seconds: number;
  mailsPerSecond: number;
  /** From the commit to the relay's acceptance of the last mail. */
  relaySeconds: number;
  /** Distinct Message-IDs the relay accepted for these rows, and how many it accepted twice. */
  accepted: number;
  duplicates: number;
  /** Rows still not sent when the measure ended. */
  unsent: number;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  return client;
}

/** Writes DRAIN_MAILS due mails in one transaction and times the service's outbox sending them all. */
export async function measureMailDrain(dbUrl: string, sink: SmtpSink): Promise<MailDrainMeasure> {
  await waitForOutboxDrain(dbUrl);
  const ours = () => sink.received.filter((mail) => mail.to[0]?.endsWith(`@${RECIPIENT_DOMAIN}`));
  const client = await connect(dbUrl);
  try {
    const batch = `drain-${Date.now()}`;
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO outbox (kind, payload)
       SELECT 'mail', jsonb_build_object(
                'to', 'guest-' || i || '@${RECIPIENT_DOMAIN}',
                'subject', 'Your order ' || i || ' is confirmed',
                'text', 'Thank you for your order ' || i || E'.\\nBatch ' || $2::text || '.')
         FROM generate_series(1, $1::int) AS i`,
      [DRAIN_MAILS, batch],
    );
    await client.query(`SELECT pg_notify('outbox_due', 'mail')`);
    await client.query('COMMIT');
    const committedAt = Date.now();
    const startedAt = performance.now();
    log(`P18: ${DRAIN_MAILS} due mails committed; waiting for the outbox to send them`);
    const deadline = committedAt + DRAIN_DEADLINE_MS;
    let unsent = DRAIN_MAILS;
    for (;;) {
      unsent = (
        await client.query(
          `SELECT count(*)::int AS n FROM outbox
            WHERE kind = 'mail' AND status <> 'sent' AND payload->>'text' LIKE $1`,
          [`%Batch ${batch}.`],
        )
      ).rows[0].n;
      if (unsent === 0 || Date.now() > deadline) break;
      await sleep(100);
    }
    const lastSent: Date | null = (
      await client.query(
        `SELECT max(sent_at) AS at FROM outbox WHERE kind = 'mail' AND payload->>'text' LIKE $1`,
        [`%Batch ${batch}.`],
      )
    ).rows[0].at;
    const received = ours();
    const ids = new Set(received.map((mail) => mail.messageId));
    const relayLast = Math.max(...received.map((mail) => mail.at));
    const seconds = lastSent ? (lastSent.getTime() - committedAt) / 1000 : NaN;
    const measure: MailDrainMeasure = {
      mails: DRAIN_MAILS,
      seconds,
      mailsPerSecond: unsent === 0 ? DRAIN_MAILS / seconds : 0,
      relaySeconds: (relayLast - startedAt) / 1000,
      accepted: ids.size,
      duplicates: received.length - ids.size,
      unsent,
    };
    log(
      `P18: ${DRAIN_MAILS - unsent} of ${DRAIN_MAILS} sent in ${seconds.toFixed(2)} s = ` +
        `${measure.mailsPerSecond.toFixed(0)} mails/s; the relay accepted ${ids.size} ` +
        `(${measure.duplicates} twice), the last ${measure.relaySeconds.toFixed(2)} s after the commit`,
    );
    return measure;
  } finally {
    await client.end();
  }
}
