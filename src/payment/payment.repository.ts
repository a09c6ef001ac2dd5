import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { execute, fetchAll, fetchOne, jsonb, sql } from '../database/query-builder';
import { keepPlan } from '../database/kept-plans';
import { preparedQuery } from '../database/prepared-query';
import { takeTransactionLock, transactionLock } from '../database/transaction-locks';
import { writeBeforeCommit } from '../database/writes-before-commit';
import {
  ABANDONED,
  changes,
  db,
  NewPayment,
  NewProviderEvent,
  PaymentChanges,
  PaymentRow,
  values,
} from './payment-tables';

export type { NewPayment, NewProviderEvent, PaymentChanges, PaymentRow } from './payment-tables';

/** A payment's insert, built once for each set of columns named (every order sends one). */
const insertPayment = preparedQuery(
  ({ payment }: { payment: NewPayment }) =>
    db.insertInto('payments').values(values(payment)).returningAll(),
  { expand: ['payment'] },
);

/** The same insert answering nothing, for a write held until the commit. */
const insertPaymentOnly = preparedQuery(
  ({ payment }: { payment: NewPayment }) => db.insertInto('payments').values(values(payment)),
  { expand: ['payment'] },
);

/** What a pending payment's change names. */
interface PendingChange {
  uuid: string;
  lockKey: string;
  set: PaymentChanges;
  replacingOrderUuid?: string;
}

/**
 * A pending payment's change under its order's payments lock (taken first),
 * as the parts `lock` and `changed` of a WITH; with `replacingOrderUuid`,
 * the abandoning of the order's other open checkouts, only when this one
 * changed (a part nothing after it reads).
 */
function pendingChange({ uuid, lockKey, set, replacingOrderUuid }: PendingChange) {
  const locked = db
    .with('lock', (qb) => qb.selectNoFrom(transactionLock('order', lockKey).as('taken')))
    .with('changed', (qb) =>
      qb
        .updateTable('payments')
        .from('lock')
        .set(changes(set))
        .where('payments.uuid', '=', uuid)
        .where('payments.status', '=', 'pending')
        .returningAll('payments'),
    );
  if (replacingOrderUuid === undefined) return locked;
  return locked.with('abandoned', (qb) =>
    qb
      .updateTable('payments')
      .set(ABANDONED)
      .where('orderUuid', '=', replacingOrderUuid)
      .where('channel', '=', 'checkout')
      .where('status', '=', 'pending')
      .where('uuid', '<>', uuid)
      .where((eb) => eb.exists(eb.selectFrom('changed').select('changed.uuid'))),
  ) as unknown as typeof locked;
}

/** The change, answering the payment as changed (nothing when it was no longer pending). */
const updatePendingQuery = preparedQuery(
  (change: PendingChange) => pendingChange(change).selectFrom('changed').selectAll(),
  { expand: ['set'] },
);

/**
 * The change as a write nothing reads back: it fails with SQLSTATE SV001
 * (`checks_before_commit`) when the payment was no longer pending, and its
 * transaction rolls back.
 */
const updatePendingCheckedQuery = preparedQuery(
  (change: PendingChange) =>
    pendingChange(change).selectNoFrom((eb) =>
      eb
        .fn<boolean>('checks_before_commit', [eb.exists(eb.selectFrom('changed').select('uuid'))])
        .as('changed'),
    ),
  { expand: ['set'] },
);

/** The payments of these orders, oldest first (creation, then uuid for a stable order). */
function paymentsOfOrders(orderUuids: string[]) {
  return db
    .selectFrom('payments')
    .selectAll('payments')
    .where('payments.orderUuid', '=', sql<string>`ANY(${orderUuids}::uuid[])`)
    .orderBy('payments.orderUuid')
    .orderBy('payments.createdAt')
    .orderBy('payments.uuid');
}

const ofOrdersQuery = preparedQuery(({ orderUuids }: { orderUuids: string[] }) =>
  paymentsOfOrders(orderUuids),
);

/** The payments of these orders, each saying whether its order has refunds. */
const ofOrdersNamingRefundedQuery = preparedQuery(({ orderUuids }: { orderUuids: string[] }) =>
  paymentsOfOrders(orderUuids).select((eb) =>
    eb
      .exists(
        eb
          .selectFrom('paymentRefunds')
          .select('paymentRefunds.uuid')
          .whereRef('paymentRefunds.orderUuid', '=', 'payments.orderUuid'),
      )
      .as('orderRefunded'),
  ),
);

/**
 * All SQL of payments and the provider events acted on (refunds: PaymentRefundRepository). The
 * payment module is the only writer of these tables; every write takes the
 * caller's transaction manager.
 */
@Injectable()
export class PaymentRepository {
  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Serialises every transaction that changes an order's payments (and the
   * order's own transactions that reach its payments): a lock on the order's
   * key held until the transaction ends, always taken before any payment or
   * order row, so two such transactions never wait on each other in a circle.
   */
  async lockOrderPayments(manager: EntityManager, orderUuid: string): Promise<void> {
    await takeTransactionLock(manager, 'order', orderUuid);
  }

  async insert(manager: EntityManager, payment: NewPayment): Promise<PaymentRow> {
    return (await fetchOne(manager, insertPayment({ payment })))!;
  }

  /** An insert nothing later in the transaction reads, sent with the transaction's other such writes. */
  async insertBeforeCommit(manager: EntityManager, payment: NewPayment): Promise<void> {
    await writeBeforeCommit(manager, keepPlan(insertPaymentOnly({ payment })));
  }

  async update(manager: EntityManager, uuid: string, set: PaymentChanges): Promise<PaymentRow> {
    return (await fetchOne(
      manager,
      db.updateTable('payments').set(changes(set)).where('uuid', '=', uuid).returningAll(),
    ))!;
  }

  /**
   * Sets `set` on the payment only while it is still pending (undefined
   * when it no longer is: what settled it meanwhile stands), in one
   * statement that takes the lock of `lockOrderPayments` on `lockKey` before
   * the row's lock (so it never waits on that lock holding the row). With
   * `replacing`, the order's other open checkouts are abandoned in the same
   * statement, and only when this one changed.
   */
  async updatePending(
    manager: EntityManager,
    payment: { uuid: string; lockKey: string },
    set: PaymentChanges,
    replacing?: { orderUuid: string },
  ): Promise<PaymentRow | undefined> {
    return fetchOne(
      manager,
      updatePendingQuery({
        uuid: payment.uuid,
        lockKey: payment.lockKey,
        set,
        replacingOrderUuid: replacing?.orderUuid,
      }),
    );
  }

  /**
   * updatePending's change with `replacing`, held for the commit
   * (writeBeforeCommit): it takes the lock when it is sent, so nothing the
   * transaction sends before it may touch the order or its payments. Where
   * the payment is no longer pending then, the transaction fails with
   * SQLSTATE SV001 and is run again. Nothing is answered: the caller knows
   * the row the change makes.
   */
  async replacePendingBeforeCommit(
    manager: EntityManager,
    payment: { uuid: string; lockKey: string },
    set: PaymentChanges,
    replacing: { orderUuid: string },
  ): Promise<void> {
    // The payment changed by its key, the order's other open checkouts by the order's:
    // its plan may be kept.
    await writeBeforeCommit(
      manager,
      keepPlan(
        updatePendingCheckedQuery({
          uuid: payment.uuid,
          lockKey: payment.lockKey,
          set,
          replacingOrderUuid: replacing.orderUuid,
        }),
      ),
    );
  }

  async findByUuid(
    manager: EntityManager,
    uuid: string,
    lock = false,
  ): Promise<PaymentRow | undefined> {
    const query = db.selectFrom('payments').selectAll().where('uuid', '=', uuid);
    return fetchOne(manager, lock ? query.forUpdate() : query);
  }

  async findByReference(
    manager: EntityManager,
    reference: string,
    lock = false,
  ): Promise<PaymentRow | undefined> {
    const query = db.selectFrom('payments').selectAll().where('reference', '=', reference);
    return fetchOne(manager, lock ? query.forUpdate() : query);
  }

  /** The payments of these shares of tabs, oldest first. */
  async ofShares(manager: EntityManager, shareUuids: readonly string[]): Promise<PaymentRow[]> {
    if (shareUuids.length === 0) return [];
    return fetchAll(
      manager,
      db
        .selectFrom('payments')
        .selectAll()
        .where('shareUuid', 'in', [...shareUuids])
        .orderBy('createdAt')
        .orderBy('uuid'),
    );
  }

  /** The payments of these orders, oldest first (creation, then uuid for a stable order). */
  async ofOrders(manager: EntityManager, orderUuids: readonly string[]): Promise<PaymentRow[]> {
    if (orderUuids.length === 0) return [];
    return fetchAll(manager, ofOrdersQuery({ orderUuids: [...orderUuids] }));
  }

  /**
   * `ofOrders`, and which of the orders have refunds, in one statement. An
   * order's refunds are always of its own payments, so an order with
   * refunds is among those whose payments are read.
   */
  async ofOrdersNamingRefunded(
    manager: EntityManager,
    orderUuids: readonly string[],
  ): Promise<{ payments: PaymentRow[]; refunded: string[] }> {
    if (orderUuids.length === 0) return { payments: [], refunded: [] };
    const rows = await fetchAll(
      manager,
      ofOrdersNamingRefundedQuery({ orderUuids: [...orderUuids] }),
    );
    const refunded = new Set<string>();
    const payments = rows.map(({ orderRefunded, ...payment }) => {
      if (orderRefunded && payment.orderUuid) refunded.add(payment.orderUuid);
      return payment;
    });
    return { payments, refunded: [...refunded] };
  }

  /**
   * Claims up to `limit` pending payments whose check is due, in one short
   * statement: locked with SKIP LOCKED (two replicas never take the same
   * one) and leased until `leaseUntil`, so no other replica asks the
   * provider about them meanwhile; a replica that dies mid-check leaves the
   * lease to run out and the check to be made again.
   */
  async claimDueChecks(now: Date, leaseUntil: Date, limit: number): Promise<PaymentRow[]> {
    const due = db
      .selectFrom('payments')
      .select('uuid')
      // In the text, as the partial index payments_check_due_idx names it:
      // a kept plan of a named statement can use that index only so.
      .where('status', '=', sql.lit('pending'))
      .where('nextCheckAt', '<=', now)
      .orderBy('nextCheckAt')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return fetchAll(
      this.manager,
      db
        .updateTable('payments')
        .set({ nextCheckAt: leaseUntil })
        .where('uuid', 'in', due)
        .returningAll(),
    );
  }

  /**
   * Records a provider event; false when the same event (provider and key)
   * was recorded before. A concurrent delivery of the same event waits here
   * until the first one's transaction ends, then finds it.
   */
  async recordEvent(manager: EntityManager, event: NewProviderEvent): Promise<boolean> {
    const rows = await fetchAll(
      manager,
      db
        .insertInto('paymentEvents')
        .values({ ...event, detail: jsonb(event.detail) })
        .onConflict((conflict) => conflict.columns(['provider', 'eventKey']).doNothing())
        .returning('id'),
    );
    return rows.length > 0;
  }

  async setEventOutcome(
    manager: EntityManager,
    provider: string,
    eventKey: string,
    outcome: string,
  ): Promise<void> {
    await execute(
      manager,
      db
        .updateTable('paymentEvents')
        .set({ outcome })
        .where('provider', '=', provider)
        .where('eventKey', '=', eventKey),
    );
  }
}
