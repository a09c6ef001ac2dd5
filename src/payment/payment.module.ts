import { Module } from '@nestjs/common';
import { PaymentCharges } from './payment-charges';
import { PaymentCheckWorker } from './payment-check.worker';
import { PaymentCheckouts } from './payment-checkouts';
import { PaymentConfirmations } from './payment-confirmations';
import { PaymentController } from './payment.controller';
import { PaymentManual } from './payment-manual';
import { PaymentRefundSettler } from './payment-refund-settler';
import { PaymentRefundRepository } from './payment-refund.repository';
import { PaymentRefunds } from './payment-refunds';
import { PaymentRepository } from './payment.repository';
import { PaymentService } from './payment.service';
import { PaymentTransitions } from './payment-transitions';
import { PaymentProviders } from './providers/payment-providers';

/**
 * Payments as records of their own: one provider interface and the providers
 * by name (`cash`, `bank_transfer`, `paystack`), card checkouts, charges by
 * USSD, mobile money and bank transfer, confirmations from webhooks, verify
 * calls and the checks of pending charges, and refunds. It knows no other
 * module: the order module calls `PaymentService` with a snapshot of the
 * order and hears back through the `payment.changed` event.
 */
@Module({
  controllers: [PaymentController],
  providers: [
    PaymentProviders,
    PaymentRepository,
    PaymentRefundRepository,
    PaymentTransitions,
    PaymentCheckouts,
    PaymentCharges,
    PaymentConfirmations,
    PaymentRefunds,
    PaymentManual,
    PaymentRefundSettler,
    PaymentCheckWorker,
    PaymentService,
  ],
  exports: [PaymentService],
})
export class PaymentModule {}
