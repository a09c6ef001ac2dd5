import { Logger } from '@nestjs/common';
import { redactText } from '../http/logging';
import { MailMessage, MailPort } from './mail.port';

const REDACTED = '[redacted]';

/**
 * The text with each of the message's secrets redacted, and whatever else
 * every log line censors (`token=` pairs of a link, a Bearer token, a JWT).
 */
// R65: log redaction.
export function loggableText(message: MailMessage): string {
  let text = message.text;
  for (const secret of message.secrets ?? []) {
    if (secret) text = text.split(secret).join(REDACTED);
  }
  return redactText(text);
}

/**
 * The default without SMTP_URL: the message goes to the log, and the
 * outbox row, marked sent, is the local mailbox tests and developers read.
 * The body is logged only in development, and even there without the
 * secrets it carries (one-time codes, invitation tokens): those are read
 * from the mailbox, never from the log.
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
    this.logger.log(this.logBody ? `${head}\n${loggableText(message)}` : head);
  }
}
