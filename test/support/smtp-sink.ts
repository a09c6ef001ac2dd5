import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  to: string[];
  /** The Message-ID header, `<…>`. */
  messageId: string;
  /** The whole message (empty when the sink keeps no bodies). */
  raw: string;
  /** performance.now() when the message's DATA ended. */
  at: number;
}

function messageIdOf(raw: string): string {
  return /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? '';
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1, as a relay would take the
 * service's mail: it keeps every message it accepted. With `stall` set it
 * takes a message's DATA and never answers, as a relay that hangs mid-send:
 * the sender waits, and the message is not accepted (it is in `stalled`).
 */
export class SmtpSink {
  readonly received: SunkMail[] = [];
  /** Messages taken while `stall` was set, never answered (unless releaseStalled()). */
  readonly stalled: SunkMail[] = [];
  stall = false;
  private readonly unanswered: Array<() => void> = [];
  private server!: SMTPServer;
  private port = 0;
  private readonly watchers = new Set<() => void>();

  private constructor(private readonly keepBodies: boolean) {}

  /** `keepBodies: false` keeps only recipients and Message-IDs (a bench sends thousands). */
  static async start(options: { keepBodies?: boolean } = {}): Promise<SmtpSink> {
    const sink = new SmtpSink(options.keepBodies ?? true);
    sink.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // A relay on loopback: no reverse DNS lookup of each client (slow where DNS is).
      disableReverseLookup: true,
      // Stalled sessions are cut at close instead of held for the default 30 s.
      closeTimeout: 200,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail: SunkMail = {
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            messageId: messageIdOf(raw),
            raw: sink.keepBodies ? raw : '',
            at: performance.now(),
          };
          if (sink.stall) {
            sink.stalled.push(mail);
            sink.unanswered.push(() => {
              sink.received.push(mail);
              callback();
            });
            sink.changed();
            return; // No answer: the sender waits for one.
          }
          sink.received.push(mail);
          sink.changed();
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.port = (sink.server.server.address() as AddressInfo).port;
    return sink;
  }

  /** The SMTP_URL of this sink. */
  url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Mails accepted for `address`. */
  to(address: string): SunkMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }

  /**
   * Resolves once `done()` holds, checked at each message; rejects with
   * `what` after `timeoutMs`, so a test fails with a reason instead of a
   * hung run.
   */
  until(done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`Timed out waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  /** Accepts the stalled messages now, as a relay that was slow but did take them. */
  releaseStalled(): void {
    for (const answer of this.unanswered.splice(0)) answer();
    this.changed();
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private changed(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}
