import { createTransport } from 'nodemailer';
import { MailMessage, MailPort } from './mail.port';

type Transporter = ReturnType<typeof createTransport>;

/** Messages sent over one pooled connection before it is replaced by a fresh one. */
const MESSAGES_PER_CONNECTION = 100;

/**
 * SMTP through nodemailer: SMTP_URL (smtp:// or smtps://, credentials in the
 * URL) and MAIL_FROM. Connections are pooled, one for each mail the outbox
 * may send at once (`connections`), so a mail costs its own exchange and not
 * a new connection, greeting and TLS handshake each time.
 */
export class SmtpMailTransport extends MailPort {
  private readonly transporter: Transporter;

  constructor(smtpUrl: string, from: string, connections: number) {
    super();
    this.transporter = createTransport(
      {
        url: smtpUrl,
        pool: true,
        maxConnections: connections,
        maxMessages: MESSAGES_PER_CONNECTION,
        // A stalled server must fail the attempt (and be retried), not hold the worker.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      },
      { from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.messageId ? { messageId: message.messageId } : {}),
    });
  }

  override close(): void {
    this.transporter.close();
  }
}
