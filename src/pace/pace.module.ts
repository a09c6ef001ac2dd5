import { Module } from '@nestjs/common';
import { EntityModule } from '../entity';
import { OrderModule } from '../order';
import { PaymentModule } from '../payment';
import { TeamModule } from '../team';
import { AcceptanceDeadlineRepository } from './acceptance-deadline.repository';
import { AcceptanceDeadlineWorker } from './acceptance-deadline.worker';
import { OrderExpiryService } from './order-expiry.service';

/**
 * The kitchen's pace: orders nobody accepts in time are rejected and
 * refunded by the service.
 */
@Module({
  imports: [EntityModule, OrderModule, PaymentModule, TeamModule],
  providers: [AcceptanceDeadlineRepository, OrderExpiryService, AcceptanceDeadlineWorker],
  exports: [AcceptanceDeadlineWorker],
})
export class PaceModule {}
