import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { execute, fetchAll, fetchOne, queryBuilder, Table } from '../database/query-builder';
import { PaymentRefundEntity, RefundStatus } from './entities';

export type RefundRow = PaymentRefundEntity;

export type PaymentRefundTable = Table<
  PaymentRefundEntity,
  'uuid' | 'reason' | 'providerRefundId' | 'requestedBy' | 'error' | 'createdAt'
>;

const db = queryBuilder<{ paymentRefunds: PaymentRefundTable }>();

export type NewRefund = Pick<
  PaymentRefundEntity,
  | 'orderUuid'
  | 'paymentUuid'
  | 'provider'
  | 'amount'
  | 'reason'
  | 'status'
  | 'providerRefundId'
  | 'requestedBy'
>;

/** Refunds that count in what was given back: accepted by the provider or recorded. */
export const COUNTED_REFUNDS: readonly RefundStatus[] = ['succeeded', 'processed'];

/**
 * All SQL of refunds of payments: the service's own (pending until the
 * provider answers), those recorded by hand, and those the provider reports.
 * Every write takes the caller's transaction manager.
 */
@Injectable()
export class PaymentRefundRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The refunds of these orders' payments, oldest first. */
  async refundsOfOrders(
    manager: EntityManager,
    orderUuids: readonly string[],
  ): Promise<RefundRow[]> {
    if (orderUuids.length === 0) return [];
    return fetchAll(
      manager,
      db
        .selectFrom('paymentRefunds')
        .selectAll()
        .where('orderUuid', 'in', [...orderUuids])
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
  }

  async hasPendingRefund(manager: EntityManager, orderUuid: string): Promise<boolean> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('paymentRefunds')
        .select('uuid')
        .where('orderUuid', '=', orderUuid)
        .where('status', '=', 'pending')
        .limit(1),
    );
    return row !== undefined;
  }

  async insertRefund(manager: EntityManager, refund: NewRefund): Promise<string> {
    const row = await fetchOne(
      manager,
      db.insertInto('paymentRefunds').values(refund).returning('uuid'),
    );
    return row!.uuid;
  }

  async finishRefund(
    manager: EntityManager,
    uuid: string,
    status: RefundStatus,
    providerRefundId: string | null,
    error: string | null,
  ): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('paymentRefunds')
        .set({ status, providerRefundId, error })
        .where('uuid', '=', uuid),
    );
  }

  /**
   * Marks the service's own refund of this payment that the provider's
   * confirmation is about as processed; false when the service made no such
   * refund (it was made at the provider itself). Matched by the provider's
   * refund id, else by amount.
   */
  async confirmKnownRefund(
    manager: EntityManager,
    paymentUuid: string,
    providerRefundId: string | null,
    amount: string,
  ): Promise<boolean> {
    let query = db
      .selectFrom('paymentRefunds')
      .select('uuid')
      .where('paymentUuid', '=', paymentUuid)
      .where('status', '=', 'succeeded')
      .orderBy('createdAt')
      .limit(1);
    query = providerRefundId
      ? query.where('providerRefundId', '=', providerRefundId)
      : query.where('amount', '=', amount);
    const known = await fetchOne(manager, query);
    if (!known) return false;
    await execute(
      manager,
      db.updateTable('paymentRefunds').set({ status: 'processed' }).where('uuid', '=', known.uuid),
    );
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
    paymentUuid: string,
    providerRefundId: string,
    ownUuid: string,
  ): Promise<boolean> {
    const gone = await fetchAll(
      manager,
      db
        .deleteFrom('paymentRefunds')
        .where('paymentUuid', '=', paymentUuid)
        .where('providerRefundId', '=', providerRefundId)
        .where('uuid', '<>', ownUuid)
        .returning('uuid'),
    );
    if (gone.length === 0) return false;
    await this.finishRefund(manager, ownUuid, 'processed', providerRefundId, null);
    return true;
  }

  /** The refund, when it is still waiting for the provider's answer. */
  async pendingRefund(manager: EntityManager, uuid: string): Promise<RefundRow | undefined> {
    return fetchOne(
      manager,
      db
        .selectFrom('paymentRefunds')
        .selectAll()
        .where('uuid', '=', uuid)
        .where('status', '=', 'pending'),
    );
  }

  /** Refunds still pending since before `before`: their process stopped before the answer. */
  async stalePendingRefunds(before: Date): Promise<RefundRow[]> {
    return fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('paymentRefunds')
        .selectAll()
        .where('status', '=', 'pending')
        .where('createdAt', '<', before)
        .orderBy('createdAt')
        .limit(100),
    );
  }

  /** The provider's ids of a payment's refunds. */
  async knownRefundIds(manager: EntityManager, paymentUuid: string): Promise<string[]> {
    const rows = await fetchAll(
      manager,
      db
        .selectFrom('paymentRefunds')
        .select('providerRefundId')
        .where('paymentUuid', '=', paymentUuid)
        .where('providerRefundId', 'is not', null),
    );
    return rows.map((row) => row.providerRefundId!);
  }
}
