/*
 * The payment module's front door: what other modules may use of it.
 *
 * The order module owns the `OrderPayments` port that this module implements,
 * and handles the payment events this module publishes, so each module uses
 * the other. Loading this door never loads the payment services (which use
 * the order module's door): the order module's files can read the types,
 * the payment block of an answer and the events channel here at any time,
 * and name the module itself only through `paymentModule()`, called by Nest
 * once every file has loaded.
 */
import type { Type } from '@nestjs/common';

export type { PaymentCollect, PaymentState } from './domain/payment-state';
export { PAYMENT_COLUMNS } from './payment-columns';
export type { PaymentColumn, PaymentColumns } from './payment-columns';
export { PaymentEvents } from './payment-events';
export type { PaymentChanged, PaymentEvent, PaymentEventListener } from './payment-events';
export { PaymentResponseDto, toPaymentResponse } from './dto/payment-response.dto';
export { PAYMENT_ENTITIES, PaymentEventEntity, PaymentRefundEntity } from './entities';

/** The payment module, for a `forwardRef` of a module that imports it. */
export function paymentModule(): Type {
  // Loaded on first call, after every file has loaded: see above.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./payment.module') as typeof import('./payment.module')).PaymentModule;
}
