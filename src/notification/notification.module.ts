import { Module } from '@nestjs/common';
import { NotificationController } from './notification.controller';
import { NotificationRepository } from './notification.repository';
import { NotificationService } from './notification.service';

/**
 * The owner's inbox of notifications and the push settings of their devices.
 * Orders, payments and webhooks add notifications in their own transactions.
 */
@Module({
  controllers: [NotificationController],
  providers: [NotificationRepository, NotificationService],
  exports: [NotificationRepository, NotificationService],
})
export class NotificationModule {}
