import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { LogMailTransport } from './log-mail.transport';
import { MailPort } from './mail.port';

/** nodemailer is loaded only when SMTP_URL is set. */
async function createMailPort(config: AppConfig): Promise<MailPort> {
  if (config.smtpUrl) {
    const { SmtpMailTransport } = await import('./smtp-mail.transport');
    // As many connections as the outbox sends mails at once.
    return new SmtpMailTransport(
      config.smtpUrl,
      config.mailFrom,
      config.outboxLanes.mail.concurrency,
    );
  }
  const production = config.nodeEnv === 'production';
  if (production) {
    new Logger('Mail').warn('SMTP_URL is not set: emails are logged, not delivered');
  }
  // Mail bodies carry one-time codes; only a developer's own machine
  // (NODE_ENV=development) writes them to the log, as its local mailbox.
  return new LogMailTransport(config.mailFrom, config.nodeEnv === 'development');
}

/** The mail transport chosen by configuration: SMTP when SMTP_URL is set, else the log. */
@Global()
@Module({
  providers: [{ provide: MailPort, inject: [APP_CONFIG], useFactory: createMailPort }],
  exports: [MailPort],
})
export class MailModule implements OnApplicationShutdown {
  constructor(@Inject(MailPort) private readonly port: MailPort) {}

  /** After the outbox worker stopped (it stops in onModuleDestroy). */
  onApplicationShutdown(): void {
    this.port.close();
  }
}
