import { Module } from '@nestjs/common';
import { EntityModule } from '../entity';
import { NotificationModule } from '../notification';
import { OrderModule } from '../order';
import { PaymentModule } from '../payment';
import { TeamModule } from '../team';
import { AcceptanceDeadlineRepository } from './acceptance-deadline.repository';
import { AcceptanceDeadlineWorker } from './acceptance-deadline.worker';
import { OrderExpiryService } from './order-expiry.service';
import { AvailabilityController } from './availability.controller';
import { AvailabilityRepository } from './availability.repository';
import { AvailabilityService } from './availability.service';

/**
 * The kitchen's pace: orders nobody accepts in time are rejected and
 * refunded by the service; the team's switch between open, busy and paused.
 */
@Module({
  imports: [EntityModule, NotificationModule, OrderModule, PaymentModule, TeamModule],
  controllers: [AvailabilityController],
  providers: [
    AcceptanceDeadlineRepository,
    OrderExpiryService,
    AcceptanceDeadlineWorker,
    AvailabilityRepository,
    AvailabilityService,
  ],
  exports: [AcceptanceDeadlineWorker],
})
export class PaceModule {}
