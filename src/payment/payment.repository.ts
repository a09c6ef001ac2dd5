import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OrderEntity } from '../order';
import { PaymentRefundEntity, RefundStatus } from './entities';
import { PAYMENT_COLUMNS, PaymentColumns } from './payment-columns';

export interface NewProviderEvent {
  provider: string;
  eventKey: string;
  eventType: string;
  reference: string;
  orderUuid: string;
  outcome: string;
  detail: Record<string, unknown>;
}

/**
 * All SQL of payments: the payment columns of orders (this repository is
 * their only writer), provider events and refunds, in the caller's
 * transaction.
 */
@Injectable()
export class PaymentRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findOrder(uuid: string): Promise<OrderEntity | null> {
    return this.dataSource.manager.findOneBy(OrderEntity, { uuid });
  }

  /** The order with its row locked until the transaction ends, so payment changes queue up. */
  async lockOrder(manager: EntityManager, uuid: string): Promise<OrderEntity | null> {
    return manager.findOne(OrderEntity, { where: { uuid }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Writes payment columns of an order and answers the order as stored. Only
   * the payment columns named are written, whatever else the object holds.
   */
  async updatePayment(
    manager: EntityManager,
    uuid: string,
    changes: PaymentColumns,
  ): Promise<OrderEntity> {
    const set: Record<string, unknown> = {};
    for (const column of PAYMENT_COLUMNS) {
      if (changes[column] !== undefined) set[column] = changes[column];
    }
    if (Object.keys(set).length) await manager.update(OrderEntity, { uuid }, set);
    return manager.findOneByOrFail(OrderEntity, { uuid });
  }

  /**
   * The order a checkout reference belongs to, locked until the transaction
   * ends. References are `<order reference>-<attempt>`; an attempt that was
   * never opened is not a known reference.
   */
  async findForUpdateByReference(
    manager: EntityManager,
    reference: string,
  ): Promise<OrderEntity | null> {
    const match = /^(.+)-(\d{1,6})$/.exec(reference);
    if (!match) return null;
    const order = await manager.findOne(OrderEntity, {
      where: { orderReference: match[1] },
      lock: { mode: 'pessimistic_write' },
    });
    const attempt = Number(match[2]);
    return order && attempt >= 1 && attempt <= order.paymentAttempts ? order : null;
  }

  /**
   * Records a provider event; false when the same event (provider and key)
   * was recorded before. A concurrent delivery of the same event waits here
   * until the first one's transaction ends, then finds it.
   */
  async recordEvent(manager: EntityManager, event: NewProviderEvent): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO payment_events (provider, event_key, event_type, reference, order_uuid, outcome, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (provider, event_key) DO NOTHING
       RETURNING id`,
      [
        event.provider,
        event.eventKey,
        event.eventType,
        event.reference,
        event.orderUuid,
        event.outcome,
        JSON.stringify(event.detail),
      ],
    );
    return rows.length > 0;
  }

  async setEventOutcome(
    manager: EntityManager,
    provider: string,
    eventKey: string,
    outcome: string,
  ): Promise<void> {
    await manager.query(
      'UPDATE payment_events SET outcome = $3 WHERE provider = $1 AND event_key = $2',
      [provider, eventKey, outcome],
    );
  }

  async pendingRefund(manager: EntityManager, orderUuid: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM payment_refunds WHERE order_uuid = $1 AND status = 'pending' LIMIT 1`,
      [orderUuid],
    );
    return rows.length > 0;
  }

  async insertRefund(
    manager: EntityManager,
    refund: Pick<
      PaymentRefundEntity,
      'orderUuid' | 'provider' | 'amount' | 'reason' | 'status' | 'providerRefundId' | 'requestedBy'
    >,
  ): Promise<string> {
    const rows: Array<{ uuid: string }> = await manager.query(
      `INSERT INTO payment_refunds (order_uuid, provider, amount, reason, status, provider_refund_id, requested_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING uuid`,
      [
        refund.orderUuid,
        refund.provider,
        refund.amount,
        refund.reason,
        refund.status,
        refund.providerRefundId,
        refund.requestedBy,
      ],
    );
    return rows[0].uuid;
  }

  async finishRefund(
    manager: EntityManager,
    uuid: string,
    status: RefundStatus,
    providerRefundId: string | null,
    error: string | null,
  ): Promise<void> {
    await manager.query(
      `UPDATE payment_refunds SET status = $2, provider_refund_id = $3, error = $4 WHERE uuid = $1`,
      [uuid, status, providerRefundId, error],
    );
  }

  /**
   * Marks the service's own refund that this provider confirmation is about
   * as processed; false when the service made no such refund (it was made at
   * the provider itself). Matched by the provider's refund id, else by amount.
   */
  async confirmKnownRefund(
    manager: EntityManager,
    orderUuid: string,
    providerRefundId: string | null,
    amount: string,
  ): Promise<boolean> {
    const rows: Array<{ uuid: string }> = await manager.query(
      `SELECT uuid FROM payment_refunds
       WHERE order_uuid = $1 AND status = 'succeeded'
         AND (provider_refund_id = $2 OR ($2::varchar IS NULL AND amount = $3::numeric))
       ORDER BY created_at LIMIT 1`,
      [orderUuid, providerRefundId, amount],
    );
    if (rows.length === 0) return false;
    await manager.query(`UPDATE payment_refunds SET status = 'processed' WHERE uuid = $1`, [
      rows[0].uuid,
    ]);
    return true;
  }

  /**
   * The provider's event for this very refund was counted before the refund
   * call answered (a webhook raced it), as a refund made at the provider:
   * that row and ours are one refund. Ours takes its place, and nothing is
   * counted again. False when no such row exists.
   */
  async takeCountedRefund(
    manager: EntityManager,
    orderUuid: string,
    providerRefundId: string,
    ownUuid: string,
  ): Promise<boolean> {
    const rows: Array<{ uuid: string }> = await manager.query(
      // Run as a SELECT so the rows come back as rows (a bare DELETE answers its count too).
      `WITH gone AS (
         DELETE FROM payment_refunds
         WHERE order_uuid = $1 AND provider_refund_id = $2 AND uuid <> $3 RETURNING uuid)
       SELECT uuid FROM gone`,
      [orderUuid, providerRefundId, ownUuid],
    );
    if (rows.length === 0) return false;
    await this.finishRefund(manager, ownUuid, 'processed', providerRefundId, null);
    return true;
  }

  /** Whether the refund is still waiting for the provider's answer. */
  async isPending(manager: EntityManager, uuid: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM payment_refunds WHERE uuid = $1 AND status = 'pending'`,
      [uuid],
    );
    return rows.length > 0;
  }

  /** Refunds still pending since before `before`: their process stopped before the answer. */
  async stalePendingRefunds(
    manager: EntityManager,
    before: Date,
  ): Promise<Array<{ uuid: string; orderUuid: string; amount: string; createdAt: Date }>> {
    const rows: Array<{ uuid: string; order_uuid: string; amount: string; created_at: Date }> =
      await manager.query(
        `SELECT uuid, order_uuid, amount, created_at FROM payment_refunds
         WHERE status = 'pending' AND created_at < $1 ORDER BY created_at LIMIT 100`,
        [before],
      );
    return rows.map((row) => ({
      uuid: row.uuid,
      orderUuid: row.order_uuid,
      amount: row.amount,
      createdAt: new Date(row.created_at),
    }));
  }

  /** The provider's ids of the order's refunds. */
  async knownRefundIds(manager: EntityManager, orderUuid: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT provider_refund_id AS id FROM payment_refunds
       WHERE order_uuid = $1 AND provider_refund_id IS NOT NULL`,
      [orderUuid],
    );
    return rows.map((row) => row.id);
  }
}
