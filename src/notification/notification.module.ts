import { Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { NotificationController } from './notification.controller';
import { NotificationRepository } from './notification.repository';
import { NotificationService } from './notification.service';

/**
 * The owner's inbox of notifications and the push settings of their devices.
 * Orders, payments and webhooks add notifications in their own transactions.
 */
@Module({
  imports: [TeamModule],
  controllers: [NotificationController],
  providers: [NotificationRepository, NotificationService],
  exports: [NotificationRepository, NotificationService],
})
export class NotificationModule {}
