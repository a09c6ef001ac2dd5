import { createTransport } from 'nodemailer';
import { MailMessage, MailPort } from './mail.port';

type Transporter = ReturnType<typeof createTransport>;

/** SMTP through nodemailer: SMTP_URL (smtp:// or smtps://, credentials in the URL) and MAIL_FROM. */
export class SmtpMailTransport extends MailPort {
  private readonly transporter: Transporter;

  constructor(smtpUrl: string, from: string) {
    super();
    this.transporter = createTransport(
      {
        url: smtpUrl,
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
