import { Module, OnApplicationBootstrap, OnModuleDestroy, Logger } from '@nestjs/common';
import { EntityModule } from '../entity/entity.module';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { NotificationController } from './notification.controller';
import { NotificationRepository } from './notification.repository';
import { NotificationService } from './notification.service';
import { OrderInboxController } from './order-inbox.controller';
import { OrderInboxService } from './order-inbox.service';
import { OrderPlacementService } from './order-placement.service';
import { OrderUpdateService } from './order-update.service';
import { OrderController } from './order.controller';
import { OrderRepository } from './order.repository';
import { OrderEventBus } from './realtime/order-event-bus';
import { OrderNotifyListener } from './realtime/order-notify.listener';
import { OrderStreamHub } from './realtime/order-stream.hub';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Guest orders, the owner's updates and inbox, notifications and the order
 * stream (API.md §5, D18–D25).
 */
@Module({
  imports: [EntityModule],
  controllers: [OrderController, OrderInboxController, NotificationController],
  providers: [
    OrderRepository,
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
  // The payment module writes payment changes into the order, its history and notifications.
  exports: [OrderRepository, NotificationRepository, OrderEventBus],
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
