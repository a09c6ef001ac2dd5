import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import { InjectConfig } from '../../config/config.module';
import { MessageChannel } from '../../order';
import { LogMessageProvider } from './log-message.provider';
import { MessageProvider } from './message-provider';
import { TermiiProvider } from './termii.provider';
import { TwilioProvider } from './twilio.provider';
import { WhatsAppCloudProvider } from './whatsapp-cloud.provider';

/**
 * The provider of each channel, chosen by configuration: WhatsApp Cloud API
 * for `whatsapp`; Termii or Twilio for `sms` (SMS_PROVIDER when both are
 * configured, else whichever is); the log transport for a channel with none.
 */
// R101: each channel's provider from its settings; none configured, the log.
@Injectable()
export class MessageProviders {
  private readonly byChannel: Record<MessageChannel, MessageProvider>;

  constructor(@InjectConfig() config: AppConfig) {
    const settings = config.guestMessages;
    const timeout = settings.timeoutMs;
    const termii = settings.termii && new TermiiProvider(settings.termii, timeout);
    const twilio = settings.twilio && new TwilioProvider(settings.twilio, timeout);
    const sms =
      termii && twilio
        ? settings.smsProvider === 'twilio'
          ? twilio
          : termii
        : (termii ?? twilio ?? new LogMessageProvider('sms'));
    this.byChannel = {
      whatsapp: settings.whatsapp
        ? new WhatsAppCloudProvider(settings.whatsapp, timeout)
        : new LogMessageProvider('whatsapp'),
      sms,
    };
  }

  of(channel: MessageChannel): MessageProvider {
    return this.byChannel[channel];
  }
}
