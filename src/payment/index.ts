/*
 * The payment module's front door: what other modules may use of it.
 */
export { PaymentModule } from './payment.module';
export { PAYMENT_COLUMNS } from './payment-columns';
export type { PaymentColumn, PaymentColumns } from './payment-columns';
