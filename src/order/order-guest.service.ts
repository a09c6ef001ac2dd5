import { Injectable } from '@nestjs/common';
import { PaymentService } from '../payment';
import { Request, Response } from 'express';
import { EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';
import { OrderTokens } from './domain/order-token';
import { canMoveStatus, nextStatuses } from './domain/order-status';
import { isUuid } from '../common/uuid';
import { CancelOrderDto } from './dto/cancel-order.dto';
import { GuestOrderResponseDto } from './dto/guest-order-response.dto';
import { OrderViews } from './order-views';
import { OrderEntity } from './entities';
import { NotificationRepository } from '../notification';
import { OrderRepository } from './order.repository';
import { OrderStatusMoves } from './order-status-moves';
import { OrderEventBus } from './realtime/order-event-bus';
import { OrderStreamHub } from './realtime/order-stream.hub';

const UNKNOWN = 'The order does not exist.';

/**
 * The guest's own view of an order, by the token the placement answered:
 * read it (without the owner's note), follow its changes, and cancel it while
 * it is pending. A wrong or missing token answers exactly as an unknown
 * order does (404), so a token tells nothing about other orders.
 */
@Injectable()
export class OrderGuestService {
  constructor(
    private readonly tokens: OrderTokens,
    private readonly orders: OrderRepository,
    private readonly notifications: NotificationRepository,
    private readonly events: OrderEventBus,
    private readonly hub: OrderStreamHub,
    private readonly moves: OrderStatusMoves,
    private readonly payments: PaymentService,
    private readonly views: OrderViews,
  ) {}

  /** The order's uuid when the token is this order's; otherwise 404. */
  private checked(uuid: string, token: unknown): string {
    if (!isUuid(uuid) || !this.tokens.matches(uuid, token)) throw ApiError.notFound(UNKNOWN);
    return uuid.toLowerCase();
  }

  async getGuestOrder(uuid: string, token: unknown): Promise<GuestOrderResponseDto> {
    const orderUuid = this.checked(uuid, token);
    const order = await this.orders.findByUuid(orderUuid);
    if (!order) throw ApiError.notFound(UNKNOWN);
    return this.guestView(order);
  }

  async streamGuestOrder(uuid: string, token: unknown, req: Request, res: Response): Promise<void> {
    const orderUuid = this.checked(uuid, token);
    if (!(await this.orders.findByUuid(orderUuid))) throw ApiError.notFound(UNKNOWN);
    this.hub.openForOrder(orderUuid, req, res);
  }

  /** pending → cancelled by the guest; the owner gets a notification and a stream event. */
  async cancelGuestOrder(
    uuid: string,
    token: unknown,
    dto: CancelOrderDto,
  ): Promise<GuestOrderResponseDto> {
    const orderUuid = this.checked(uuid, token);
    return this.events.transaction(async (manager, _publish, tx) => {
      const order = await this.orders.findForUpdate(manager, orderUuid);
      if (!order) throw ApiError.notFound(UNKNOWN);
      if (order.status !== 'pending' || !canMoveStatus(order.status, 'cancelled')) {
        throw ApiError.unprocessable(
          `An order that is ${order.status} can no longer be cancelled by the guest; only a pending one can.`,
          [
            {
              field: 'status',
              message: `the order is ${order.status}; only a pending order can be cancelled`,
              current_status: order.status,
              allowed: order.status === 'pending' ? [...nextStatuses(order.status)] : [],
            },
          ],
        );
      }
      if (await this.payments.heldOnline(order.uuid, manager)) {
        // The money came in through the provider: only the restaurant can give it
        // back (a refund), so a guest's cancel would leave it "cancelled, paid".
        throw ApiError.unprocessable(
          'This order is paid online; ask the restaurant to cancel it, and they refund the payment.',
          [
            {
              field: 'payment',
              message: `the payment is ${order.paymentState}; the restaurant refunds it`,
              payment_status: order.paymentState,
            },
          ],
        );
      }
      const updated = await this.moves.move(tx, order, 'cancelled', {
        actor: 'guest',
        userUuid: null,
      });
      const reason = dto.reason?.trim() ? dto.reason.trim() : null;
      await this.notifications.insert(manager, {
        userUuid: order.ownerUuid,
        kind: 'order.cancelled',
        title: `Order ${order.orderReference} cancelled by the guest`,
        body: reason ? `Reason: ${reason}` : 'No reason given.',
        data: {
          order_uuid: order.uuid,
          order_reference: order.orderReference,
          business_uuid: order.businessUuid,
          menu_uuid: order.menuUuid,
          reason,
        },
      });
      return this.guestView(updated, manager);
    });
  }

  private guestView(order: OrderEntity, manager?: EntityManager): Promise<GuestOrderResponseDto> {
    return this.views.guest(order, manager);
  }
}
