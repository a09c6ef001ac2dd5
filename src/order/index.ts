/*
 * The order module's front door: what other modules may use of it. The Nest
 * module class itself is not here: it imports the payment module, whose files
 * read this door, so loading it from here would make every reader of these
 * types load both modules half-way; the modules that import it name its file.
 */
export { OrderPayments } from './order-payments';
export type { ManualPaymentStatus, PaymentPlan, PaymentPlanInput } from './order-payments';
export { OrderEntity, OrderEventEntity } from './entities';
export type { OrderActor } from './entities/order-event.entity';
export { OrderEventBus } from './realtime/order-event-bus';
export type {
  OrderChangeKind,
  OrderChangeListener,
  PublishOrderEvent,
} from './realtime/order-event-bus';
export { OrderTokens } from './domain/order-token';
export { offeredProviderEntry } from './domain/payment-methods';
export {
  GuestOrderResponseDto,
  OrderResponseDto,
  toGuestOrderResponse,
  toOrderResponse,
} from './dto/order-response.dto';
