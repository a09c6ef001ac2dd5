import type { OrderSnapshot } from '../payment';
import type { OrderEntity } from './entities';

/** What the payment module is told of an order. */
export function snapshotOf(order: OrderEntity): OrderSnapshot {
  return {
    uuid: order.uuid,
    businessUuid: order.businessUuid,
    orderReference: order.orderReference,
    amount: order.amount,
    currency: order.currency,
    email: order.customerEmailAddress,
    method: order.paymentProcessor,
  };
}
