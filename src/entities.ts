import { ACCOUNT_ENTITIES } from './account';
import { DISCOUNT_ENTITIES } from './discount';
import { ENTITY_ENTITIES } from './entity';
import { MESSAGING_ENTITIES } from './messaging';
import { KITCHEN_ENTITIES } from './kitchen';
import { NOTIFICATION_ENTITIES } from './notification';
import { ORDER_ENTITIES } from './order';
import { OutboxEntity } from './outbox/outbox.entity';
import { PACE_ENTITIES } from './pace';
import { PAYMENT_ENTITIES } from './payment';
import { RateLimitCounterEntity } from './rate-limit/rate-limit-counter.entity';
import { STOCK_ENTITIES } from './stock';
import { TEAM_ENTITIES } from './team';
import { WEBHOOK_ENTITIES } from './webhook';

/**
 * Every TypeORM entity of the service, each module's from its front door;
 * the drift check compares these with the migrations.
 */
export const ENTITIES = [
  ...ACCOUNT_ENTITIES,
  ...ENTITY_ENTITIES,
  OutboxEntity,
  RateLimitCounterEntity,
  ...ORDER_ENTITIES,
  ...NOTIFICATION_ENTITIES,
  ...WEBHOOK_ENTITIES,
  ...PAYMENT_ENTITIES,
  ...TEAM_ENTITIES,
  ...DISCOUNT_ENTITIES,
  ...PACE_ENTITIES,
  ...MESSAGING_ENTITIES,
  ...STOCK_ENTITIES,
  ...KITCHEN_ENTITIES,
];
