/*
 * The order module's front door: what other modules may use of it.
 */
export { OrderPayments } from './order-payments';
export type { ManualPaymentStatus, PaymentPlan, PaymentPlanInput } from './order-payments';
export { ORDER_ENTITIES, OrderEntity, OrderEventEntity } from './entities';
export type { OrderActor } from './entities/order-event.entity';
export { OrderEventBus } from './realtime/order-event-bus';
export type { OrderChangeKind, OrderChanged, PublishOrderEvent } from './realtime/order-event-bus';
export { OrderTokens } from './domain/order-token';
export { offeredProviderEntry } from './domain/payment-methods';
export {
  GuestOrderResponseDto,
  OrderResponseDto,
  toGuestOrderResponse,
  toOrderResponse,
} from './dto/order-response.dto';
export { OrderRepository } from './order.repository';
export type { OrderChanges } from './order.repository';
export { OrderInboxService } from './order-inbox.service';
export { OrderModule } from './order.module';
