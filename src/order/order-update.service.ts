import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { ApiError, ErrorDetail } from '../http/api-error';
import { AccessPolicy, BusinessRole } from '../team';
import {
  canMovePaymentStatus,
  canMoveStatus,
  nextPaymentStatuses,
  nextStatuses,
} from './domain/order-status';
import { isUuid } from '../common/uuid';
import { OrderResponseDto, toOrderResponse } from './dto/order-response.dto';
import { OrderPricer } from './order-pricer';
import { UpdateOrderDto } from './dto/update-order.dto';
import { OrderEntity } from './entities';
import { OrderActor } from './entities/order-event.entity';
import { NewOrderEvent, OrderChanges, OrderRepository } from './order.repository';
import { ManualPaymentStatus, OrderPayments } from './order-payments';
import { OrderSlotsRepository } from './order-slots.repository';
import { OrderFulfilment } from './order-fulfilment';
import { OrderEventBus } from './realtime/order-event-bus';

function allowedText(allowed: readonly string[]): string {
  return allowed.length ? allowed.join(', ') : 'none (it is final)';
}

/**
 * The update of an order by its business's owner or team: the order state
 * machine, payment status and owner note, with every change in the history
 * under the acting user and their role.
 */
@Injectable()
export class OrderUpdateService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly events: OrderEventBus,
    private readonly payments: OrderPayments,
    private readonly access: AccessPolicy,
    private readonly pricer: OrderPricer,
    private readonly slots: OrderSlotsRepository,
    private readonly fulfilment: OrderFulfilment,
  ) {}

  async updateOrder(
    user: AuthUser,
    orderId: string,
    dto: UpdateOrderDto,
  ): Promise<OrderResponseDto> {
    if (
      dto.status === undefined &&
      dto.payment_status === undefined &&
      dto.owner_note === undefined &&
      dto.estimated_ready_at === undefined
    ) {
      throw ApiError.validation(
        [
          {
            field: 'status',
            message:
              'send at least one of status, payment_status, owner_note or estimated_ready_at',
          },
        ],
        'Nothing to change: send status, payment_status, owner_note or estimated_ready_at.',
      );
    }
    this.fulfilment.checkReadyAtSent(dto.estimated_ready_at);
    if (!isUuid(orderId)) throw ApiError.notFound('The order does not exist.');
    return this.events.transaction(async (manager, publish) => {
      // The row stays locked until commit: a concurrent update waits here and
      // then checks expected_status against this one's result, never a stale read.
      const order = await this.orders.findForUpdate(manager, orderId.toLowerCase());
      if (!order) throw ApiError.notFound('The order does not exist.');
      const noPart = {
        message: "Only the owner of the order's business or its team may update it.",
      };
      const role = await this.access.requireAccess(
        user,
        'order.update',
        order.businessUuid,
        noPart,
        manager,
      );
      // R33: owner payment updates.
      if (dto.payment_status !== undefined) this.access.check(role, 'payment.manual', noPart);
      if (dto.expected_status !== undefined && dto.expected_status !== order.status) {
        throw ApiError.conflict(
          `The order is ${order.status}, not ${dto.expected_status}: it was changed meanwhile.`,
          [
            {
              field: 'expected_status',
              message: `the current status is ${order.status}`,
              current_status: order.status,
            },
          ],
        );
      }

      const { changes, payment, history, problems } = this.plan(order, dto, {
        uuid: user.uuid,
        role,
      });
      if (problems.length === 0) {
        const readyAt = await this.fulfilment.readyTime(manager, order, dto, changes.status);
        if (readyAt) {
          changes.estimatedReadyAt = readyAt;
          // A time the team sends is a change of its own in the history; the one
          // set on acceptance goes with the status change.
          if (dto.estimated_ready_at !== undefined) {
            history.push({
              field: 'estimated_ready_at',
              fromValue: order.estimatedReadyAt
                ? new Date(order.estimatedReadyAt).toISOString()
                : null,
              toValue: readyAt.toISOString(),
              actorUuid: user.uuid,
              actor: role,
            });
          }
        }
      }
      if (problems.length) {
        throw ApiError.unprocessable(problems[0].message, problems);
      }
      if (history.length === 0) {
        return this.detail(manager, order);
      }
      let updated = Object.keys(changes).length
        ? await this.orders.updateOrder(manager, order.uuid, changes)
        : order;
      await this.pricer.giveBackWhenEnded(manager, updated);
      await this.slots.releaseOnStatus(manager, order, changes.status);
      // The history keeps the order of the body: status, payment, note.
      await this.orders.insertEvents(
        manager,
        order.uuid,
        history.filter((entry) => entry.field === 'status'),
      );
      if (payment) {
        // The payment module writes the payment, through its transitions; its
        // announcement joins this update's single one below.
        updated = await this.payments.recordManualPayment(
          manager,
          async () => undefined,
          updated,
          payment,
          { actor: role, userUuid: user.uuid },
        );
      }
      await this.orders.insertEvents(
        manager,
        order.uuid,
        history.filter((entry) => entry.field === 'owner_note'),
      );
      await this.orders.insertEvents(
        manager,
        order.uuid,
        history.filter((entry) => entry.field === 'estimated_ready_at'),
      );
      await publish(
        'order.updated',
        updated,
        history.map((entry) =>
          entry.field === 'payment'
            ? 'payment'
            : entry.field === 'owner_note'
              ? 'note'
              : entry.field === 'estimated_ready_at'
                ? 'ready_time'
                : 'status',
        ),
      );
      return this.detail(manager, updated);
    });
  }

  /** What the update changes, the history entries it makes, and which status moves it refuses. */
  private plan(order: OrderEntity, dto: UpdateOrderDto, by: { uuid: string; role: BusinessRole }) {
    const actorUuid = by.uuid;
    const actor: OrderActor = by.role;
    const changes: OrderChanges = {};
    let payment: ManualPaymentStatus | undefined;
    const history: NewOrderEvent[] = [];
    const problems: ErrorDetail[] = [];
    if (dto.status !== undefined) {
      if (canMoveStatus(order.status, dto.status)) {
        changes.status = dto.status;
        history.push({
          field: 'status',
          fromValue: order.status,
          toValue: dto.status,
          actorUuid,
          actor,
        });
      } else {
        const allowed = nextStatuses(order.status);
        problems.push({
          field: 'status',
          message: `An order that is ${order.status} cannot become ${dto.status}; allowed next: ${allowedText(allowed)}.`,
          current_status: order.status,
          allowed: [...allowed],
        });
      }
    }
    if (dto.payment_status !== undefined) {
      if (this.payments.collectedOnline(order)) {
        // The provider decides an online payment; the owner can ask it with verify.
        problems.push({
          field: 'payment_status',
          message: `The ${order.paymentProcessor} payment is confirmed by the provider, not set by hand; use verify.`,
          collect: 'online',
        });
      } else if (canMovePaymentStatus(order.paymentStatus, dto.payment_status)) {
        // Offline money is counted as the owner records it (the only moves by
        // hand lead to paid or refunded).
        payment = dto.payment_status as ManualPaymentStatus;
        history.push({
          field: 'payment',
          fromValue: order.paymentState,
          toValue: dto.payment_status,
          actorUuid,
          actor,
        });
      } else {
        const allowed = nextPaymentStatuses(order.paymentStatus);
        problems.push({
          field: 'payment_status',
          message: `A payment that is ${order.paymentStatus} cannot become ${dto.payment_status}; allowed next: ${allowedText(allowed)}.`,
          current_payment_status: order.paymentStatus,
          allowed: [...allowed],
        });
      }
    }
    if (dto.owner_note !== undefined) {
      const note = dto.owner_note === '' ? null : dto.owner_note;
      if (note !== order.ownerNote) {
        changes.ownerNote = note;
        history.push({
          field: 'owner_note',
          fromValue: order.ownerNote,
          toValue: note,
          actorUuid,
          actor,
        });
      }
    }
    return { changes, payment, history, problems };
  }

  private async detail(manager: EntityManager, order: OrderEntity): Promise<OrderResponseDto> {
    const lines = await this.orders.linesOf([order.uuid], manager);
    const events = await this.orders.eventsOf([order.uuid], manager);
    return toOrderResponse(order, lines.get(order.uuid) ?? [], events.get(order.uuid) ?? []);
  }
}
