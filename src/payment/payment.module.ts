import { forwardRef, Module } from '@nestjs/common';
import { TeamModule } from '../team';
import { EntityModule } from '../entity';
import { OrderModule, OrderPayments } from '../order';
import { OrderAccess } from './order-access';
import { PaymentEvents } from './payment-events';
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
 * webhooks and verify calls, and refunds. The order module owns the
 * `OrderPayments` port and this module implements it; the two modules import
 * each other through forward references.
 */
@Module({
  imports: [forwardRef(() => OrderModule), EntityModule, TeamModule],
  controllers: [PaymentController],
  providers: [
    PaymentProviders,
    PaymentRepository,
    PaymentEvents,
    PaymentTransitions,
    PaymentCheckoutService,
    PaymentConfirmationService,
    PaymentRefundService,
    PaymentRefundSettler,
    OrderAccess,
    { provide: OrderPayments, useExisting: PaymentCheckoutService },
  ],
  exports: [OrderPayments, PaymentEvents],
})
export class PaymentModule {}
