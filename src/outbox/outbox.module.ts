import { Global, Module } from '@nestjs/common';
import { MailModule } from '../mail/mail.module';
import { OutboxRepository } from './outbox.repository';
import { OutboxService } from './outbox.service';
import { OutboxWorker } from './outbox.worker';

@Global()
@Module({
  imports: [MailModule],
  providers: [OutboxService, OutboxRepository, OutboxWorker],
  exports: [OutboxService, OutboxWorker],
})
export class OutboxModule {}
