import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { OrderEventEntity } from './order-event.entity';
import { OrderLineEntity } from './order-line.entity';
import { OrderSlotEntity } from './order-slot.entity';
import { OrderEntity } from './order.entity';
import { TabEntity, TabShareEntity } from '../tabs/tab.entity';

export {
  IdempotencyKeyEntity,
  OrderEntity,
  OrderEventEntity,
  OrderLineEntity,
  OrderSlotEntity,
  TabEntity,
  TabShareEntity,
};

/** The order module's tables, collected by the composition root (src/entities.ts). */
export const ORDER_ENTITIES = [
  OrderEntity,
  OrderLineEntity,
  OrderEventEntity,
  IdempotencyKeyEntity,
  OrderSlotEntity,
  TabEntity,
  TabShareEntity,
];
