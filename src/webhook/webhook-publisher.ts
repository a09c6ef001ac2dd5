import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppEvents, EventBus, Transaction } from '../database/event-bus';
import {
  OrderChangeKind,
  OrderEntity,
  OrderInboxService,
  OrderPlacing,
  OrderResponseDto,
  TabClosed,
} from '../order';
import type { AvailabilityChanged } from '../pace';
import { eventOfChange, WebhookEventType } from './domain/webhook-events';
import { WebhookQueue } from './webhook-queue';
import { WebhookRepository } from './webhook.repository';

/**
 * Turns order changes into webhook events inside the transaction that makes
 * the change: placement → `order.created`, a status move →
 * `order.status_changed`, a payment move → `order.payment_changed` (a note
 * sends nothing). One event per enabled endpoint of the order's owner that
 * wants the type and is not limited to another business. A change that rolls
 * back takes its events with it.
 */
@Injectable()
export class WebhookPublisher implements OnModuleInit {
  /** The endpoints that want `order.created`, read as a placement began, by its transaction. */
  private readonly readAhead = new WeakMap<
    Transaction,
    OrderPlacing & { endpoints: Promise<string[]> }
  >();

  constructor(
    private readonly bus: EventBus,
    private readonly orders: OrderInboxService,
    private readonly repository: WebhookRepository,
    private readonly queue: WebhookQueue,
  ) {}

  onModuleInit(): void {
    this.bus.on('order.placing', (placing, tx) => {
      this.readEndpointsAhead(tx, placing);
      return Promise.resolve();
    });
    this.bus.on('order.changed', ({ order, changes, view }, tx) =>
      this.publish(tx.manager, order, changes, view, this.takeReadAhead(tx, order, changes)),
    );
    this.bus.on('business.availability_changed', (change, tx) =>
      this.publishAvailability(tx.manager, change),
    );
    this.bus.on('stock.crossed', (event, tx) => this.publishStock(tx.manager, event));
    this.bus.on('tab.closed', (event, tx) => this.publishTabClosed(tx.manager, event));
  }

  /** A change of the kitchen's switch → `business.availability_changed`. */
  async publishAvailability(manager: EntityManager, change: AvailabilityChanged): Promise<void> {
    const type = 'business.availability_changed';
    const endpoints = await this.repository.matchingEndpoints(
      manager,
      change.ownerUuid,
      change.businessUuid,
      type,
    );
    for (const endpoint of endpoints) {
      await this.queue.enqueueEvent(manager, endpoint, type, {
        business_uuid: change.businessUuid,
        availability: change.availability,
      });
    }
  }

  /** An item's stock fell to its `low_at` or to 0: `stock.low` or `item.sold_out`, with the item's count. */
  async publishStock(manager: EntityManager, event: AppEvents['stock.crossed']): Promise<void> {
    const endpoints = await this.repository.matchingEndpoints(
      manager,
      event.ownerUuid,
      event.businessUuid,
      event.type,
    );
    for (const endpoint of endpoints) {
      await this.queue.enqueueEvent(manager, endpoint, event.type, {
        business_uuid: event.businessUuid,
        item: { ...event.item },
      });
    }
  }

  // R115: a closed tab is an event of its own.
  /** A table's tab closed: `tab.closed` with the tab's summary, to the endpoints that want it. */
  async publishTabClosed(manager: EntityManager, event: TabClosed): Promise<void> {
    const endpoints = await this.repository.matchingEndpoints(
      manager,
      event.ownerUuid,
      event.businessUuid,
      'tab.closed',
    );
    for (const endpoint of endpoints) {
      await this.queue.enqueueEvent(manager, endpoint, 'tab.closed', { tab: event.tab });
    }
  }

  /**
   * Issues the read of the endpoints that want `order.created` as the
   * placement begins, without waiting for it: it leaves with the order's
   * insert. A placement that fails before its announcement leaves it unused
   * (its failure is the transaction's to report, so it is caught here).
   */
  private readEndpointsAhead(tx: Transaction, placing: OrderPlacing): void {
    const endpoints = this.repository.matchingEndpoints(
      tx.manager,
      placing.ownerUuid,
      placing.businessUuid,
      'order.created',
    );
    endpoints.catch(() => undefined);
    this.readAhead.set(tx, { ...placing, endpoints });
  }

  /** The endpoints read ahead for this new order, once; undefined for any other change. */
  private takeReadAhead(
    tx: Transaction,
    order: OrderEntity,
    changes: readonly OrderChangeKind[],
  ): Promise<string[]> | undefined {
    const ahead = this.readAhead.get(tx);
    if (!ahead || changes.length !== 1 || changes[0] !== 'created') return undefined;
    if (ahead.ownerUuid !== order.ownerUuid || ahead.businessUuid !== order.businessUuid) {
      return undefined;
    }
    this.readAhead.delete(tx);
    return ahead.endpoints;
  }

  async publish(
    manager: EntityManager,
    order: OrderEntity,
    changes: readonly OrderChangeKind[],
    /** The owner's view, when the one who changed the order holds it whole. */
    known?: OrderResponseDto,
    /** For a new order: the endpoints that want `order.created`, read as its placement began. */
    createdEndpoints?: Promise<string[]>,
  ): Promise<void> {
    const types = new Set<WebhookEventType>();
    for (const change of changes) {
      const type = eventOfChange(change);
      if (type) types.add(type);
    }
    let view: Record<string, unknown> | undefined;
    for (const type of types) {
      const endpoints = await (type === 'order.created' && createdEndpoints
        ? createdEndpoints
        : this.repository.matchingEndpoints(manager, order.ownerUuid, order.businessUuid, type));
      if (endpoints.length === 0) continue;
      // Read once, only when someone wants it: most owners have no endpoints.
      view ??= { ...(known ?? (await this.orders.ownerView(manager, order))) };
      for (const endpoint of endpoints) {
        await this.queue.enqueueEvent(manager, endpoint, type, { order: view });
      }
    }
  }
}
