/*
 * The payment module's front door: what other modules may use of it. The
 * order module reads an order's payment through these, so nothing here loads
 * the payment services (which use the order module): PaymentModule itself is
 * imported by the composition root.
 */
export type { PaymentCollect, PaymentState } from './domain/payment-state';
export { PaymentResponseDto, toPaymentResponse } from './dto/payment-response.dto';
export { PAYMENT_ENTITIES, PaymentEventEntity, PaymentRefundEntity } from './entities';
