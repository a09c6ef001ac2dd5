import { Module, OnApplicationBootstrap, OnModuleDestroy, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AccountModule } from '../account';
import { EntityModule } from '../entity/entity.module';
import { TeamModule } from '../team';
import { OrderTokens } from './domain/order-token';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { NotificationController } from './notification.controller';
import { NotificationRepository } from './notification.repository';
import { NotificationService } from './notification.service';
import { OrderGuestController } from './order-guest.controller';
import { OrderGuestService } from './order-guest.service';
import { OrderInboxController } from './order-inbox.controller';
import { OrderInboxService } from './order-inbox.service';
import { OrderPlacementService } from './order-placement.service';
import { OrderUpdateService } from './order-update.service';
import { OrderController } from './order.controller';
import { OrderRepository } from './order.repository';
import { OrderFulfilment } from './order-fulfilment';
import { OrderSlotsRepository } from './order-slots.repository';
import { OrderSlotsController } from './order-slots.controller';
import { OrderEventBus } from './realtime/order-event-bus';
import { OrderNotifyListener } from './realtime/order-notify.listener';
import { OrderStreamHub } from './realtime/order-stream.hub';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Guest orders, the owner's updates and inbox, notifications and the order
 * stream, and the mails an order sends.
 */
@Module({
  imports: [AccountModule, EntityModule, TeamModule],
  controllers: [
    OrderController,
    OrderGuestController,
    OrderInboxController,
    NotificationController,
    OrderSlotsController,
  ],
  providers: [
    {
      provide: OrderTokens,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new OrderTokens(config.jwtSecret),
    },
    OrderGuestService,
    OrderRepository,
    OrderFulfilment,
    OrderSlotsRepository,
    NotificationRepository,
    IdempotencyRepository,
    IdempotencyService,
    OrderPlacementService,
    OrderUpdateService,
    OrderInboxService,
    NotificationService,
    OrderStreamHub,
    OrderNotifyListener,
    OrderEventBus,
  ],
  // For modules that react to order changes (outbound webhooks, payments): the
  // change listeners, the owner's view of an order, the order rows and the
  // owner's notifications.
  exports: [
    OrderEventBus,
    OrderInboxService,
    NotificationService,
    OrderRepository,
    NotificationRepository,
  ],
})
export class OrderModule implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Orders');
  private purgeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly idempotency: IdempotencyService) {}

  /** Idempotency keys older than their 24 h window are dropped hourly. */
  onApplicationBootstrap(): void {
    this.purgeTimer = setInterval(() => {
      this.idempotency
        .purgeExpired()
        .catch((error: unknown) =>
          this.logger.warn(`Purging idempotency keys failed: ${String(error)}`),
        );
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
  }
}
