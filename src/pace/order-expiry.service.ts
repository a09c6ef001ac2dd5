import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../common/clock';
import { EventBus } from '../database/event-bus';
import { ApiError } from '../http/api-error';
import { OrderEntity, OrderRepository, OrderStatusMoves, snapshotOf } from '../order';
import { NotificationRepository } from '../notification';
import { OutboxService } from '../outbox/outbox.service';
import { PaymentService } from '../payment';
import { acceptanceDeadline } from './acceptance-deadline';
import {
  AcceptanceDeadlineRepository,
  NOT_ACCEPTED_IN_TIME,
  PendingOrderFacts,
} from './acceptance-deadline.repository';
import { lateOrderMail } from './pace-mails';

const SYSTEM = { actor: 'system', userUuid: null } as const;

/**
 * Rejects an order nobody accepted by its deadline, once whichever
 * replica gets there first: the order's lock is taken without waiting (a
 * replica or a member already holding it is left to finish), the order is
 * read again under it, and only a still-pending order past its deadline
 * moves. In that one transaction: open checkouts and charges are closed,
 * the status moves to `rejected` by the system with its reason (the move
 * gives back the discount redemption and the slot place and announces the
 * change: the stream, the webhook, and every module that reacts to a
 * status), the owner and the team are notified, and the guest's mail copy
 * is queued if they asked for copies.
 * The money paid online is refunded once it has committed (a provider call
 * never runs inside a transaction); a refund a stopped process left owed is
 * made by the next pass (refundOwed).
 */
@Injectable()
export class OrderExpiryService {
  private readonly logger = new Logger('Orders');

  constructor(
    private readonly bus: EventBus,
    private readonly deadlines: AcceptanceDeadlineRepository,
    private readonly orders: OrderRepository,
    private readonly moves: OrderStatusMoves,
    private readonly payments: PaymentService,
    private readonly outbox: OutboxService,
    private readonly notifications: NotificationRepository,
    private readonly clock: Clock,
  ) {}

  /** Rejects the order if it is still pending past its deadline; true when this call rejected it. */
  async expire(facts: PendingOrderFacts): Promise<boolean> {
    const rejected = await this.bus.transaction(async (tx) => {
      // R91: one replica rejects an order, once; an order being accepted is left alone.
      if (!(await this.deadlines.claim(tx.manager, facts.uuid))) return null;
      const order = await this.orders.findForUpdate(tx.manager, facts.uuid);
      if (!order || order.status !== 'pending') return null;
      const deadline = acceptanceDeadline(facts);
      if (!deadline || deadline.getTime() > this.clock.nowMs()) return null;
      await this.payments.abandonOpen(tx, order.uuid, SYSTEM);
      const updated = await this.moves.move(tx, order, 'rejected', {
        ...SYSTEM,
        reason: NOT_ACCEPTED_IN_TIME,
      });
      await this.notifications.insert(tx.manager, {
        userUuid: order.ownerUuid,
        kind: 'order.expired',
        title: `Order ${order.orderReference} was not accepted in time`,
        body: 'The service rejected it and refunds what the guest paid online.',
        data: {
          order_uuid: order.uuid,
          order_reference: order.orderReference,
          business_uuid: order.businessUuid,
          menu_uuid: order.menuUuid,
          reason: NOT_ACCEPTED_IN_TIME,
        },
      });
      if (updated.customerRequestedOrderEmailCopy) {
        const business = await this.deadlines.businessName(tx.manager, order.businessUuid);
        await this.outbox.enqueueMail(tx.manager, lateOrderMail(updated, business));
      }
      return updated;
    });
    if (!rejected) return false;
    await this.refundOwed(rejected);
    return true;
  }

  /**
   * Refunds, in full, what an order the deadline rejected still holds online
   * (R92). The payment module lets one refund of an order run at a time
   * (another is refused while one is pending) and refuses one when nothing
   * is left, so two replicas asking at once give back the money once.
   */
  async refundOwed(order: OrderEntity): Promise<void> {
    if (!(await this.payments.heldOnline(order.uuid, this.deadlines.manager))) return;
    try {
      const result = await this.payments.refund(snapshotOf(order), {
        amount: undefined,
        reason: NOT_ACCEPTED_IN_TIME,
        by: SYSTEM,
      });
      if (result.failed.length) {
        this.logger.warn(`Refund of late order ${order.uuid} refused: ${result.failed[0]}`);
      }
    } catch (error) {
      // 409: another replica's refund is under way; 422: nothing left to give back.
      if (error instanceof ApiError) return;
      throw error;
    }
  }

  /** The refunds owed by orders rejected earlier; the number asked for. */
  async refundAllOwed(limit: number): Promise<number> {
    const owed = await this.deadlines.refundsOwed(limit);
    for (const uuid of owed) {
      const order = await this.orders.findByUuid(uuid);
      if (order) await this.refundOwed(order);
    }
    return owed.length;
  }
}
