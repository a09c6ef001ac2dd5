import { Global, Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';
import { OutboxSignal } from './outbox-signal';
import { OutboxWorker } from './outbox.worker';

@Global()
@Module({
  imports: [MailModule],
  providers: [OutboxService, OutboxRepository, OutboxWorker, OutboxSignal],
  exports: [OutboxService, OutboxWorker, OutboxSignal],
})
export class OutboxModule {}
