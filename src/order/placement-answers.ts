import { Injectable } from '@nestjs/common';
import { CheckoutContext, PaymentRow, PaymentService } from '../payment';
import { toGuestOrderResponse } from './dto/guest-order-response.dto';
import { OrderResponseDto } from './dto/order-response.dto';
import { OrderEntity, OrderEventEntity, OrderLineEntity } from './entities';
import { OrderRepository } from './order.repository';
import { snapshotOf } from './order-snapshot';
import { OrderViews } from './order-views';
import { HeardPaymentChange, PaymentChangeListener } from './payment-change.listener';

/** A new order as its placement's transaction committed it, with its first payment. */
export interface CommittedPlacement {
  answer: OrderResponseDto;
  order: OrderEntity;
  lines: OrderLineEntity[];
  events: OrderEventEntity[];
  payment: PaymentRow | null;
  context: CheckoutContext;
}

/**
 * The placement's answers that are not the committed order as written: a
 * replay's (the order as it stands now) and a card order's, once its
 * checkout is open. A guest's answer goes through the guest's mapping (no
 * note of the owner's, no member uuids in its history), `owner_note` kept
 * in the answer's shape, null; a member's is the owner's view.
 */
@Injectable()
export class PlacementAnswers {
  constructor(
    private readonly orders: OrderRepository,
    private readonly views: OrderViews,
    private readonly payments: PaymentService,
    private readonly paymentChanges: PaymentChangeListener,
  ) {}

  /** A replay's answer: the stored one predates the checkout, so the order is read as it stands now. */
  replayed(byMember: boolean, stored: OrderResponseDto): Promise<OrderResponseDto> {
    return this.readAgain(byMember, stored.uuid, stored);
  }

  /**
   * Opens the checkout of an order paid online, now that it has committed,
   * and answers the order with it; any other order's answer is the one
   * written.
   */
  async afterCommit(byMember: boolean, placed: CommittedPlacement): Promise<OrderResponseDto> {
    const { answer, order, payment, context, lines, events } = placed;
    if (payment?.channel !== 'checkout') return answer;
    // The order and its one payment are as the placement wrote them: the
    // checkout's outcome follows without reading them again, so the
    // payment's change and the order's write go in one round trip.
    const heard = await this.paymentChanges.whilePlaced(order, payment, () =>
      this.payments.openCheckout(
        snapshotOf(order),
        payment,
        context,
        (tx) => this.paymentChanges.heardIn(tx),
        { readsNothing: true },
      ),
    );
    const fromWrites = byMember ? undefined : this.guestAnswerFrom(order, lines, events, heard);
    return fromWrites ?? this.readAgain(byMember, order.uuid, answer, lines);
  }

  /**
   * The guest's answer from what the checkout's transaction wrote and read
   * under the order's lock: the order, the history entries the placement
   * and the checkout added, and the payments. Undefined, for the order to be
   * read again, when that transaction did not change the order's payments
   * or something else changed the order since it was placed.
   */
  private guestAnswerFrom(
    placed: OrderEntity,
    lines: OrderLineEntity[],
    placedEvents: OrderEventEntity[],
    heard: HeardPaymentChange | undefined,
  ): OrderResponseDto | undefined {
    if (!heard) return undefined;
    if (new Date(heard.before.updatedAt).getTime() !== new Date(placed.updatedAt).getTime()) {
      return undefined;
    }
    const view = toGuestOrderResponse(heard.order, {
      lines,
      events: [...placedEvents, ...heard.events],
      payments: heard.payments,
    });
    return { ...view, owner_note: null };
  }

  /** The order read again as it stands now; with a guest's `lines`, only the rest is read. */
  private async readAgain(
    byMember: boolean,
    uuid: string,
    fallback: OrderResponseDto,
    lines?: OrderLineEntity[],
  ): Promise<OrderResponseDto> {
    if (lines && !byMember) {
      // The lines as placed; the rest read again at once.
      const view = await this.views.guestWithLines(uuid, lines);
      return view ? { ...view, owner_note: null } : fallback;
    }
    const current = await this.orders.findByUuid(uuid);
    if (!current) return fallback;
    if (byMember) return this.views.owner(current);
    return { ...(await this.views.guest(current)), owner_note: null };
  }
}
