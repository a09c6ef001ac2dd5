import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PaymentService } from '../payment';
import { GuestOrderResponseDto, toGuestOrderResponse } from './dto/guest-order-response.dto';
import { OrderParts, OrderResponseDto, toOrderResponse } from './dto/order-response.dto';
import { OrderEntity } from './entities';
import { OrderRepository } from './order.repository';
import { OrderTickets } from './order-tickets';

/**
 * The answers about orders, for their business (owner and team) and for
 * their guest: each order with its lines, history and payments, read in
 * three queries for a whole page. Read on `manager` inside a transaction, so
 * a change sees its own writes.
 */
@Injectable()
export class OrderViews {
  constructor(
    private readonly orders: OrderRepository,
    private readonly payments: PaymentService,
    private readonly tickets: OrderTickets,
  ) {}

  async partsOf(
    orders: readonly OrderEntity[],
    manager?: EntityManager,
  ): Promise<Map<string, OrderParts>> {
    const uuids = orders.map((order) => order.uuid);
    const [lines, events, payments] = manager
      ? [
          await this.orders.linesOf(uuids, manager),
          await this.orders.eventsOf(uuids, manager),
          await this.payments.ofOrders(uuids, manager),
        ]
      : await Promise.all([
          this.orders.linesOf(uuids),
          this.orders.eventsOf(uuids),
          this.payments.ofOrders(uuids),
        ]);
    const parts = new Map<string, OrderParts>();
    for (const uuid of uuids) {
      parts.set(uuid, {
        lines: lines.get(uuid) ?? [],
        events: events.get(uuid) ?? [],
        payments: payments.get(uuid) ?? { payments: [], refunds: [] },
      });
    }
    return parts;
  }

  /** The orders as their business reads them. */
  async owners(
    orders: readonly OrderEntity[],
    manager?: EntityManager,
  ): Promise<OrderResponseDto[]> {
    const parts = await this.partsOf(orders, manager);
    const tickets = await this.tickets.of(
      orders.map((order) => order.uuid),
      manager,
    );
    return orders.map((order) =>
      toOrderResponse(order, { ...parts.get(order.uuid)!, tickets: tickets.get(order.uuid) ?? [] }),
    );
  }

  async owner(order: OrderEntity, manager?: EntityManager): Promise<OrderResponseDto> {
    const [view] = await this.owners([order], manager);
    return view;
  }

  /**
   * The order as its guest reads it, read again after a change that leaves
   * its lines as they were (an order's lines never change once placed):
   * the order, its history and its payments, at once; null when it is gone.
   */
  async guestWithLines(
    uuid: string,
    lines: OrderParts['lines'],
  ): Promise<GuestOrderResponseDto | null> {
    const [order, events, payments] = await Promise.all([
      this.orders.findByUuid(uuid),
      this.orders.eventsOf([uuid]),
      this.payments.ofOrders([uuid]),
    ]);
    if (!order) return null;
    return toGuestOrderResponse(order, {
      lines,
      events: events.get(uuid) ?? [],
      payments: payments.get(uuid) ?? { payments: [], refunds: [] },
    });
  }

  /** The order as its guest reads it (nothing that is the business's own). */
  async guest(order: OrderEntity, manager?: EntityManager): Promise<GuestOrderResponseDto> {
    const parts = await this.partsOf([order], manager);
    return toGuestOrderResponse(order, parts.get(order.uuid)!);
  }
}
