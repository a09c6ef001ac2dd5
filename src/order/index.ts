/*
 * The order module's front door: what other modules may use of it.
 */
export { ORDER_ENTITIES, OrderEntity, OrderEventEntity } from './entities';
export type { OrderActor } from './entities/order-event.entity';
export { OrderEventBus } from './realtime/order-event-bus';
export type {
  OrderChangeKind,
  OrderChanged,
  OrderPlacing,
  PublishOrderEvent,
} from './realtime/order-event-bus';
export { OrderTokens } from './domain/order-token';
export { GuestOrderResponseDto, toGuestOrderResponse } from './dto/guest-order-response.dto';
export { OrderResponseDto, toOrderResponse } from './dto/order-response.dto';
export type { OrderParts } from './dto/order-response.dto';
export { OrderRepository } from './order.repository';
export type { OrderChanges } from './order.repository';
export { OrderInboxService } from './order-inbox.service';
export { OrderViews } from './order-views';
export { OrderStatusMoves } from './order-status-moves';
export { snapshotOf } from './order-snapshot';
export { OrderTickets } from './order-tickets';
export type { OrderTicketSummary } from './order-tickets';
export type { MoveBy, MoveExtras } from './order-status-moves';
export { OrderModule } from './order.module';
export { MESSAGE_CHANNELS } from './domain/message-consent';
export type { MessageChannel, OrderMessageConsent } from './domain/message-consent';
export type { OrderStatus } from './domain/order-status';
export type { TabClosed } from './tabs/tab-events';
