import { PaymentEntity } from './payment.entity';
import { PaymentEventEntity } from './payment-event.entity';
import { PaymentRefundEntity, RefundStatus } from './payment-refund.entity';

export { PaymentEntity, PaymentEventEntity, PaymentRefundEntity };
export type { RefundStatus };

/** The payment module's tables, collected by the composition root (src/entities.ts). */
export const PAYMENT_ENTITIES = [PaymentEntity, PaymentEventEntity, PaymentRefundEntity];
