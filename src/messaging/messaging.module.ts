import { Module } from '@nestjs/common';
import { NotificationModule } from '../notification';
import { OrderModule } from '../order';
import { TeamModule } from '../team';
import { GuestMessageGuestController, GuestMessageLogController } from './guest-message.controller';
import { GuestMessageDelivery } from './guest-message-delivery';
import { GuestMessagePublisher } from './guest-message-publisher';
import { GuestMessageQueue } from './guest-message-queue';
import { GuestMessageRepository } from './guest-message.repository';
import { GuestMessageService } from './guest-message.service';
import { MessageProviders } from './providers/message-providers';

/**
 * Guest messages by WhatsApp and SMS: the guest's consent kept at placement,
 * a message at each order event the business chose, written in the order's
 * transaction and sent through the outbox, WhatsApp's statuses, the guest's
 * stop and the owner's log. It hears of orders through the event bus only.
 */
@Module({
  imports: [NotificationModule, OrderModule, TeamModule],
  controllers: [GuestMessageGuestController, GuestMessageLogController],
  providers: [
    GuestMessageRepository,
    MessageProviders,
    GuestMessageQueue,
    GuestMessagePublisher,
    GuestMessageDelivery,
    GuestMessageService,
  ],
})
export class MessagingModule {}
