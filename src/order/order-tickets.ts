import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** One kitchen ticket of an order, as the business's view of the order lists it. */
export interface OrderTicketSummary {
  uuid: string;
  station: string;
  kind: 'new' | 'void';
  status: string;
  printed_count: number;
  created_at: string;
}

export type OrderTicketsReader = (
  orderUuids: readonly string[],
  manager?: EntityManager,
) => Promise<Map<string, OrderTicketSummary[]>>;

/**
 * The port through which the kitchen tells the order's view of its tickets:
 * the kitchen module (which depends on this one) provides the reader at
 * start-up, so the order module reads tickets without importing the kitchen.
 * Without a reader every order has none.
 */
@Injectable()
export class OrderTickets {
  private reader: OrderTicketsReader | undefined;

  provide(reader: OrderTicketsReader): void {
    this.reader = reader;
  }

  async of(
    orderUuids: readonly string[],
    manager?: EntityManager,
  ): Promise<Map<string, OrderTicketSummary[]>> {
    if (!this.reader || orderUuids.length === 0) return new Map();
    return this.reader(orderUuids, manager);
  }
}
