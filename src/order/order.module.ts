import { Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscountModule } from '../discount';
import { PlacementGuards } from './placement-guards';
import { OrderPricer } from './order-pricer';
import { DiscountGuessLimit } from './discount-guess-limit';
import { OrderQuoteService } from './order-quote.service';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AccountModule } from '../account';
import { EntityModule } from '../entity';
import { NotificationModule } from '../notification';
import { PaymentModule } from '../payment';
import { TeamModule } from '../team';
import { StockModule } from '../stock';
import { OrderTokens } from './domain/order-token';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { OrderGuestController } from './order-guest.controller';
import { OrderGuestService } from './order-guest.service';
import { OrderInboxController } from './order-inbox.controller';
import { OrderInboxService } from './order-inbox.service';
import { OrderPlacementService } from './order-placement.service';
import { PlacementNotices } from './placement-notices';
import { OrderUpdateService } from './order-update.service';
import { OrderController } from './order.controller';
import { OrderRepository } from './order.repository';
import { PaymentChangeListener } from './payment-change.listener';
import { PlacementAnswers } from './placement-answers';
import { OrderPaymentsController } from './order-payments.controller';
import { OrderPaymentsService } from './order-payments.service';
import { OrderViews } from './order-views';
import { OrderTickets } from './order-tickets';
import { OrderStatusMoves } from './order-status-moves';
import { OrderFulfilment } from './order-fulfilment';
import { OrderSlotsRepository } from './order-slots.repository';
import { OrderSlotsController } from './order-slots.controller';
import { OrderEventBus } from './realtime/order-event-bus';
import { OrderNotifyListener } from './realtime/order-notify.listener';
import { OrderStreamHub } from './realtime/order-stream.hub';
import { StaffOrdersController } from './staff-orders.controller';
import { TabGuestController, TabsController } from './tabs/tabs.controller';
import { TabsService } from './tabs/tabs.service';
import { TabLedger } from './tabs/tab-ledger';
import { TabPayments } from './tabs/tab-payments';
import { TabSplits } from './tabs/tab-split';
import { TabViews } from './tabs/tab-views';
import { TabRepository } from './tabs/tab.repository';
import { TabRounds } from './tabs/tab-rounds';
import { TabTokens } from './tabs/tab-tokens';

const PURGE_EVERY_MS = 60 * 60 * 1000;

/**
 * Guest orders, the owner's updates and inbox, the order stream, the mails
 * an order sends, and the routes of its payments (the payment module does
 * the payment work and tells this one of each change by an event).
 */
@Module({
  // The order module calls payments; payments hear of nothing here and answer by events.
  imports: [
    AccountModule,
    EntityModule,
    NotificationModule,
    TeamModule,
    DiscountModule,
    PaymentModule,
    StockModule,
  ],
  controllers: [
    OrderController,
    OrderGuestController,
    OrderInboxController,
    OrderSlotsController,
    OrderPaymentsController,
    StaffOrdersController,
    TabsController,
    TabGuestController,
  ],
  providers: [
    {
      provide: OrderTokens,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new OrderTokens(config.jwtSecret),
    },
    {
      provide: TabTokens,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new TabTokens(config.jwtSecret),
    },
    TabRepository,
    TabRounds,
    TabLedger,
    TabViews,
    TabSplits,
    TabPayments,
    TabsService,
    OrderGuestService,
    OrderRepository,
    OrderFulfilment,
    OrderSlotsRepository,
    IdempotencyRepository,
    IdempotencyService,
    OrderPlacementService,
    PlacementNotices,
    OrderPricer,
    PlacementGuards,
    DiscountGuessLimit,
    OrderQuoteService,
    OrderUpdateService,
    OrderInboxService,
    OrderStreamHub,
    OrderNotifyListener,
    OrderEventBus,
    PaymentChangeListener,
    PlacementAnswers,
    OrderViews,
    OrderPaymentsService,
    OrderStatusMoves,
    OrderTickets,
  ],
  // For modules that react to order changes (outbound webhooks): the owner's
  // view of an order, the order rows and the guests' order tokens.
  exports: [
    OrderEventBus,
    OrderTokens,
    OrderInboxService,
    OrderRepository,
    OrderViews,
    OrderStatusMoves,
    OrderTickets,
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
