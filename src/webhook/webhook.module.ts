import { Module } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EntityModule } from '../entity';
import { NotificationModule } from '../notification';
import { OrderModule } from '../order';
import { SecretBox } from './domain/secret-box';
import { WebhookController } from './webhook.controller';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookPublisher } from './webhook-publisher';
import { WebhookQueue } from './webhook-queue';
import { WebhookRepository } from './webhook.repository';
import { WebhookService } from './webhook.service';

/**
 * Outbound webhooks: owners' endpoints, events written in the transaction of
 * each order change, and their signed delivery through the outbox.
 */
@Module({
  imports: [EntityModule, NotificationModule, OrderModule],
  controllers: [WebhookController],
  providers: [
    WebhookRepository,
    WebhookService,
    WebhookQueue,
    WebhookPublisher,
    WebhookDeliveryService,
    {
      provide: SecretBox,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SecretBox(config.webhookSecretKey),
    },
  ],
})
export class WebhookModule {}
