/*
 * The payment module's front door: what other modules may use of it.
 */
export { PAYMENT_COLUMNS } from './payment-columns';
export type { PaymentColumn, PaymentColumns } from './payment-columns';
export { PaymentEvents } from './payment-events';
export type { PaymentChanged, PaymentEvent, PaymentEventListener } from './payment-events';
export type { PaymentState } from './domain/payment-state';
// Last: the module pulls in the order module, which reads the exports above.
export { PaymentModule } from './payment.module';
