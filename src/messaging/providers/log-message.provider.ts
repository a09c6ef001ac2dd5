import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { maskPhone } from '../../common/phone-number';
import { redactText } from '../../http/logging';
import { MessageChannel } from '../../order';
import { MessageProvider, OutgoingMessage, SendOutcome } from './message-provider';

/**
 * The transport when no provider of a channel is configured: the message is
 * written to the log, the phone masked and the link's token redacted, and
 * its row in the message log, marked sent by `log`, is the local outbox a
 * developer or a test reads.
 */
export class LogMessageProvider implements MessageProvider {
  readonly name = 'log';
  private readonly logger = new Logger('GuestMessages');

  constructor(readonly channel: MessageChannel) {}

  send(message: OutgoingMessage): Promise<SendOutcome> {
    this.logger.log(
      `Guest message (log transport, ${this.channel}) to ${maskPhone(message.to)}: ${redactText(message.text)}`,
    );
    return Promise.resolve({ ok: true, providerMessageId: `log-${randomUUID()}` });
  }
}
