import { Global, Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EntityModule } from '../entity';
import { OrderModule, OrderPayments, OrderTokens } from '../order';
import { NotificationModule } from '../notification';
import { OrderAccess } from './order-access';
import { PaymentCheckoutService } from './payment-checkout.service';
import { PaymentConfirmationService } from './payment-confirmation.service';
import { PaymentController } from './payment.controller';
import { PaymentRefundService } from './payment-refund.service';
import { PaymentRefundSettler } from './payment-refund-settler';
import { PaymentRepository } from './payment.repository';
import { PaymentTransitions } from './payment-transitions.service';
import { PaymentProviders } from './providers/payment-providers';

/**
 * Payments of orders: one provider interface, the providers by name
 * (`cash`, `bank_transfer`, `paystack`), checkouts, confirmations from
 * webhooks and verify calls, and refunds. Global so that order placement can
 * ask for `OrderPayments` without the order module depending on this one.
 */
@Global()
@Module({
  imports: [OrderModule, EntityModule, NotificationModule, TeamModule],
  controllers: [PaymentController],
  providers: [
    PaymentProviders,
    PaymentRepository,
    PaymentTransitions,
    PaymentCheckoutService,
    PaymentConfirmationService,
    PaymentRefundService,
    PaymentRefundSettler,
    OrderAccess,
    { provide: OrderPayments, useExisting: PaymentCheckoutService },
    {
      provide: OrderTokens,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new OrderTokens(config.jwtSecret),
    },
  ],
  exports: [OrderPayments],
})
export class PaymentModule {}
