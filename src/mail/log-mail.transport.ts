import { Logger } from '@nestjs/common';
import { MailMessage, MailPort } from './mail.port';

/**
 * The default without SMTP_URL: the message goes to the log, and the
 * outbox row, marked sent, is the local mailbox tests and developers read.
 * The body is logged only in development, as it carries one-time codes.
 */
export class LogMailTransport extends MailPort {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly from: string,
    private readonly logBody: boolean,
  ) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    const id = message.messageId ? ` ${message.messageId}` : '';
    const head = `Mail (log transport)${id} from ${this.from} to ${message.to}: ${message.subject}`;
    this.logger.log(this.logBody ? `${head}\n${message.text}` : head);
  }
}
