/*
 * The order module's front door: what other modules may use of it.
 */
export { OrderModule } from './order.module';
export { OrderRepository } from './order.repository';
export type { OrderChanges } from './order.repository';
export { OrderInboxService } from './order-inbox.service';
export { OrderEventBus } from './realtime/order-event-bus';
export type { OrderChangeKind, PublishOrderEvent } from './realtime/order-event-bus';
export { OrderTokens } from './domain/order-token';
export { OrderPayments } from './order-payments';
export type { PaymentPlan, PaymentPlanInput } from './order-payments';
export {
  GuestOrderResponseDto,
  OrderResponseDto,
  toGuestOrderResponse,
  toOrderResponse,
} from './dto/order-response.dto';
export { ORDER_ENTITIES, OrderEntity, OrderEventEntity } from './entities';
export type { OrderActor } from './entities/order-event.entity';
