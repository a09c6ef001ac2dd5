/*
 * The payment module's front door: what other modules may use of it. The
 * payment module imports no other module; the order module calls it here.
 */
import './payment-events';

export { PaymentModule } from './payment.module';
export { PaymentService } from './payment.service';
export type { CheckoutContext, PaymentPlan, PaymentPlanInput } from './payment-checkouts';
export type {
  ChangedBy,
  OrderSnapshot,
  ShareChargeSnapshot,
  ShareSnapshot,
} from './payment-transitions';
export type { RefundRequest, RefundResult } from './payment-refunds';
export type { PaymentRow } from './payment.repository';
export type { RefundRow } from './payment-refund.repository';
export type { PaymentActor, PaymentChanged } from './payment-events';
export {
  canMoveManually,
  derivePaymentState,
  isPaymentStatus,
  manualMoveTable,
  MANUAL_PAYMENT_STATUSES,
  NOTIFIED_STATES,
  nextManualStatuses,
  PAYMENT_METHODS,
  PAYMENT_STATES,
  PAYMENT_STATUSES,
  paymentStatusOf,
  SETTLED_STATES,
} from './domain/payment-state';
export type {
  ManualPaymentStatus,
  PaymentCollect,
  PaymentMethod,
  PaymentState,
  PaymentStatus,
} from './domain/payment-state';
export {
  isPaymentOffered,
  offeredProviderEntries,
  offeredProviderEntry,
  offeredProviders,
  PAYMENT_PROCESSORS,
} from './domain/payment-methods';
export type { PaymentProcessor } from './domain/payment-methods';
export { CreatePaymentDto, SubmitOtpDto } from './dto/create-payment.dto';
export {
  isOpen,
  NextActionDto,
  PaymentRecordResponseDto,
  PaymentRefundResponseDto,
  PaymentResponseDto,
  toPaymentRecords,
  toPaymentResponse,
} from './dto/payment-response.dto';
export type { OrderPaymentFacts, PaymentsOfOrder } from './dto/payment-response.dto';
export {
  PAYMENT_ENTITIES,
  PaymentEntity,
  PaymentEventEntity,
  PaymentRefundEntity,
} from './entities';
