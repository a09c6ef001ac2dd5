import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { Transaction } from '../database/event-bus';
import { ApiError, ErrorDetail } from '../http/api-error';
import {
  canMoveManually,
  ManualPaymentStatus,
  nextManualStatuses,
  PaymentService,
} from '../payment';
import { AccessPolicy, BusinessRole } from '../team';
import { canMoveStatus, nextStatuses } from './domain/order-status';
import { isUuid } from '../common/uuid';
import { OrderResponseDto } from './dto/order-response.dto';
import { UpdateOrderDto } from './dto/update-order.dto';
import { OrderEntity } from './entities';
import { NewOrderEvent, OrderChanges, OrderRepository } from './order.repository';
import { OrderStatusMoves } from './order-status-moves';
import { OrderFulfilment } from './order-fulfilment';
import { snapshotOf } from './order-snapshot';
import { OrderViews } from './order-views';
import { OrderChangeKind, OrderEventBus, publisher } from './realtime/order-event-bus';

function allowedText(allowed: readonly string[]): string {
  return allowed.length ? allowed.join(', ') : 'none (it is final)';
}

/** What an update changes: the order's columns, a manual payment status, and the history it makes. */
interface Plan {
  changes: OrderChanges;
  payment: ManualPaymentStatus | undefined;
  history: NewOrderEvent[];
  problems: ErrorDetail[];
}

interface Actor {
  uuid: string;
  role: BusinessRole;
}

const CHANGE_OF_FIELD: Readonly<Record<string, OrderChangeKind>> = {
  status: 'status',
  owner_note: 'note',
  estimated_ready_at: 'ready_time',
};

/**
 * The update of an order by its business's owner or team: the order state
 * machine, the manual payment status, the owner's note and the ready time,
 * with every change in the history under the acting user and their role.
 */
@Injectable()
export class OrderUpdateService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly events: OrderEventBus,
    private readonly payments: PaymentService,
    private readonly access: AccessPolicy,
    private readonly moves: OrderStatusMoves,
    private readonly fulfilment: OrderFulfilment,
    private readonly views: OrderViews,
  ) {}

  async updateOrder(
    user: AuthUser,
    orderId: string,
    dto: UpdateOrderDto,
  ): Promise<OrderResponseDto> {
    const fields = ['status', 'payment_status', 'owner_note', 'estimated_ready_at'] as const;
    if (fields.every((field) => dto[field] === undefined)) {
      throw ApiError.validation(
        [{ field: 'status', message: `send at least one of ${fields.join(', ')}` }],
        'Nothing to change: send status, payment_status, owner_note or estimated_ready_at.',
      );
    }
    this.fulfilment.checkReadyAtSent(dto.estimated_ready_at);
    if (!isUuid(orderId)) throw ApiError.notFound('The order does not exist.');
    return this.events.transaction(async (manager, _publish, tx) => {
      // The row stays locked until commit: a concurrent update waits here and
      // then checks expected_status against this one's result, never a stale read.
      const order = await this.orders.findForUpdate(manager, orderId.toLowerCase());
      if (!order) throw ApiError.notFound('The order does not exist.');
      const role = await this.authorise(tx, user, order, dto);
      const plan = await this.plan(tx, order, dto, { uuid: user.uuid, role });
      if (plan.problems.length)
        throw ApiError.unprocessable(plan.problems[0].message, plan.problems);
      if (plan.history.length === 0) return this.views.owner(order, manager);
      const updated = await this.apply(tx, order, plan, { uuid: user.uuid, role });
      return this.views.owner(updated, manager);
    });
  }

  /** The caller's role on the order's business, refusing what it may not change. */
  private async authorise(
    tx: Transaction,
    user: AuthUser,
    order: OrderEntity,
    dto: UpdateOrderDto,
  ): Promise<BusinessRole> {
    const noPart = { message: "Only the owner of the order's business or its team may update it." };
    const role = await this.access.requireAccess(
      user,
      'order.update',
      order.businessUuid,
      noPart,
      tx.manager,
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
    return role;
  }

  /** Writes the planned changes, the history in the order of the body, and one announcement. */
  private async apply(
    tx: Transaction,
    order: OrderEntity,
    plan: Plan,
    by: Actor,
  ): Promise<OrderEntity> {
    const { manager } = tx;
    const { status, ...changes } = plan.changes;
    const kinds = plan.history.flatMap((entry) =>
      entry.field === 'status' ? [] : (CHANGE_OF_FIELD[entry.field] ?? []),
    );
    let updated = order;
    if (status) {
      updated = await this.moves.move(
        tx,
        order,
        status,
        { actor: by.role, userUuid: by.uuid },
        { changes, kinds },
      );
    } else if (Object.keys(changes).length) {
      updated = await this.orders.updateOrder(manager, order.uuid, changes);
    }
    if (plan.payment) {
      // The payment module records it; the order hears of it (read model,
      // history, announcement) through the payment's change, in this transaction.
      await this.payments.recordManual(tx, snapshotOf(updated), plan.payment, {
        actor: by.role,
        userUuid: by.uuid,
      });
      updated = (await this.orders.findByUuid(order.uuid, manager))!;
    }
    for (const field of ['owner_note', 'estimated_ready_at'] as const) {
      await this.orders.insertEvents(
        manager,
        order.uuid,
        plan.history.filter((e) => e.field === field),
      );
    }
    if (!status && kinds.length) await publisher(tx)('order.updated', updated, kinds);
    return updated;
  }

  /** What the update changes, the history entries it makes, and which moves it refuses. */
  private async plan(
    tx: Transaction,
    order: OrderEntity,
    dto: UpdateOrderDto,
    by: Actor,
  ): Promise<Plan> {
    const plan: Plan = { changes: {}, payment: undefined, history: [], problems: [] };
    this.planStatus(plan, order, dto, by);
    if (dto.payment_status !== undefined) await this.planPayment(tx, plan, order, dto, by);
    if (dto.owner_note !== undefined) {
      const note = dto.owner_note === '' ? null : dto.owner_note;
      if (note !== order.ownerNote) {
        plan.changes.ownerNote = note;
        plan.history.push(entry('owner_note', order.ownerNote, note, by));
      }
    }
    if (plan.problems.length === 0) {
      const readyAt = await this.fulfilment.readyTime(tx.manager, order, dto, plan.changes.status);
      if (readyAt) {
        plan.changes.estimatedReadyAt = readyAt;
        // A time the team sends is a change of its own in the history; the one
        // set on acceptance goes with the status change.
        if (dto.estimated_ready_at !== undefined) {
          const from = order.estimatedReadyAt
            ? new Date(order.estimatedReadyAt).toISOString()
            : null;
          plan.history.push(entry('estimated_ready_at', from, readyAt.toISOString(), by));
        }
      }
    }
    return plan;
  }

  private planStatus(plan: Plan, order: OrderEntity, dto: UpdateOrderDto, by: Actor): void {
    if (dto.status === undefined) return;
    if (canMoveStatus(order.status, dto.status)) {
      plan.changes.status = dto.status;
      plan.history.push(entry('status', order.status, dto.status, by));
      return;
    }
    const allowed = nextStatuses(order.status);
    plan.problems.push({
      field: 'status',
      message: `An order that is ${order.status} cannot become ${dto.status}; allowed next: ${allowedText(allowed)}.`,
      current_status: order.status,
      allowed: [...allowed],
    });
  }

  private async planPayment(
    tx: Transaction,
    plan: Plan,
    order: OrderEntity,
    dto: UpdateOrderDto,
    by: Actor,
  ): Promise<void> {
    const to = dto.payment_status!;
    if (await this.payments.collectedOnline(tx, order.uuid)) {
      // The provider decides an online payment; the owner can ask it with verify.
      plan.problems.push({
        field: 'payment_status',
        message: `The ${order.paymentProcessor} payment is confirmed by the provider, not set by hand; use verify.`,
        collect: 'online',
      });
    } else if (canMoveManually(order.paymentStatus, to)) {
      // Money the business collects is counted as it records it (the only
      // moves by hand lead to paid or refunded).
      plan.payment = to as ManualPaymentStatus;
      plan.history.push(entry('payment', order.paymentState, to, by));
    } else {
      const allowed = nextManualStatuses(order.paymentStatus);
      plan.problems.push({
        field: 'payment_status',
        message: `A payment that is ${order.paymentStatus} cannot become ${to}; allowed next: ${allowedText(allowed)}.`,
        current_payment_status: order.paymentStatus,
        allowed: [...allowed],
      });
    }
  }
}

function entry(
  field: NewOrderEvent['field'],
  from: string | null,
  to: string | null,
  by: Actor,
): NewOrderEvent {
  return { field, fromValue: from, toValue: to, actorUuid: by.uuid, actor: by.role };
}
