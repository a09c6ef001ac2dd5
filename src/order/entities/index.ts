import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { NotificationSettingEntity } from './notification-setting.entity';
import { NotificationEntity } from './notification.entity';
import { OrderEventEntity } from './order-event.entity';
import { OrderLineEntity } from './order-line.entity';
import { OrderSlotEntity } from './order-slot.entity';
import { OrderEntity } from './order.entity';

export {
  IdempotencyKeyEntity,
  NotificationEntity,
  NotificationSettingEntity,
  OrderEntity,
  OrderEventEntity,
  OrderLineEntity,
  OrderSlotEntity,
};

/** The order module's tables, registered in src/database/entities.ts. */
export const ORDER_ENTITIES = [
  OrderEntity,
  OrderLineEntity,
  OrderEventEntity,
  NotificationEntity,
  NotificationSettingEntity,
  IdempotencyKeyEntity,
  OrderSlotEntity,
];
