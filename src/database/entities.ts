import { UserEntity } from '../account/user.entity';
import { DISCOUNT_ENTITIES } from '../discount';
import { UserTokenEntity } from '../account/user-token.entity';
import { EntityRecord } from '../entity/entity-record.entity';
import { ORDER_ENTITIES } from '../order/entities';
import { PAYMENT_ENTITIES } from '../payment/entities';
import { OutboxEntity } from '../outbox/outbox.entity';
import { RateLimitCounterEntity } from '../rate-limit/rate-limit-counter.entity';
import { BusinessMemberEntity } from '../team';
import { WEBHOOK_ENTITIES } from '../webhook/entities';

/** Every TypeORM entity of the service; the drift check compares these with the migrations. */
export const ENTITIES = [
  UserEntity,
  UserTokenEntity,
  EntityRecord,
  OutboxEntity,
  RateLimitCounterEntity,
  ...ORDER_ENTITIES,
  ...WEBHOOK_ENTITIES,
  ...PAYMENT_ENTITIES,
  BusinessMemberEntity,
  ...DISCOUNT_ENTITIES,
];
