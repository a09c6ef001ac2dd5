import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { fetchAll, queryBuilder, sql, Table } from '../database/query-builder';
import { tryTransactionLock } from '../database/transaction-locks';
import { EntityRecord } from '../entity';
import { OrderEntity, OrderEventEntity } from '../order';
import { PaymentRefundEntity } from '../payment';

const db = queryBuilder<{
  orders: Table<OrderEntity>;
  entities: Table<EntityRecord>;
  orderEvents: Table<Omit<OrderEventEntity, 'order'>>;
  paymentRefunds: Table<PaymentRefundEntity>;
}>();

/** The reason a late order's history entry carries. */
export const NOT_ACCEPTED_IN_TIME = 'not_accepted_in_time';

/** The longest prep time a menu may set (minutes): orders for later due within it are read. */
const MAX_PREP_MINUTES = 1440;

/** A pending order of a business with a deadline, with what its deadline is computed from. */
export interface PendingOrderFacts {
  uuid: string;
  createdAt: Date;
  requestedTime: Date | null;
  /** The business's `acceptance_deadline_minutes` as stored. */
  deadlineMinutes: unknown;
  /** The menu's `extra_data.fulfilment` as stored (its `prep_time_minutes`). */
  fulfilment: unknown;
}

/**
 * What the acceptance deadline reads: pending orders of businesses that set
 * a deadline and may be due, and orders it rejected that still hold money.
 */
@Injectable()
export class AcceptanceDeadlineRepository {
  constructor(private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * Pending orders that may be past their deadline at `now`: an order for now
   * placed more than a minute ago (the shortest deadline), an order for later
   * whose requested time is within the longest prep time. The exact deadline
   * is the caller's to compute; a business without the setting has none.
   */
  async candidates(now: Date, limit: number): Promise<PendingOrderFacts[]> {
    const placedBefore = new Date(now.getTime() - 60_000);
    const requestedBefore = new Date(now.getTime() + MAX_PREP_MINUTES * 60_000);
    const rows = await fetchAll(
      this.manager,
      db
        .selectFrom('orders as o')
        .innerJoin('entities as b', 'b.uuid', 'o.businessUuid')
        .leftJoin('entities as m', 'm.uuid', 'o.menuUuid')
        .select([
          'o.uuid',
          'o.createdAt',
          'o.requestedTime',
          sql<unknown>`b.extra_data -> 'acceptance_deadline_minutes'`.as('deadlineMinutes'),
          sql<unknown>`m.extra_data -> 'fulfilment'`.as('fulfilment'),
        ])
        .where('o.status', '=', 'pending')
        .where(sql<boolean>`b.extra_data -> 'acceptance_deadline_minutes' IS NOT NULL`)
        .where(sql<boolean>`b.extra_data -> 'acceptance_deadline_minutes' <> 'null'::jsonb`)
        .where((eb) =>
          eb.or([
            eb.and([eb('o.requestedTime', 'is', null), eb('o.createdAt', '<=', placedBefore)]),
            eb.and([
              eb('o.requestedTime', 'is not', null),
              eb('o.requestedTime', '<=', requestedBefore),
            ]),
          ]),
        )
        .orderBy('o.createdAt')
        .orderBy('o.uuid')
        .limit(limit),
    );
    return rows.map((row) => ({
      ...row,
      createdAt: new Date(row.createdAt),
      requestedTime: row.requestedTime ? new Date(row.requestedTime) : null,
    }));
  }

  /**
   * Orders the deadline rejected that still hold more money than was given
   * back, and whose refund was not refused by the provider (those are the
   * team's to settle): their refund is owed, e.g. when a process stopped
   * between the rejection and the refund, or money arrived afterwards.
   */
  async refundsOwed(limit: number): Promise<string[]> {
    const rows = await fetchAll(
      this.manager,
      db
        .selectFrom('orders as o')
        .select('o.uuid')
        .where('o.status', '=', 'rejected')
        .where(sql<boolean>`o.amount_paid > o.amount_refunded`)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('orderEvents as e')
              .select('e.id')
              .whereRef('e.orderUuid', '=', 'o.uuid')
              .where('e.field', '=', 'status')
              .where('e.reason', '=', NOT_ACCEPTED_IN_TIME),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('paymentRefunds as r')
                .select('r.uuid')
                .whereRef('r.orderUuid', '=', 'o.uuid')
                .where('r.status', 'in', ['failed', 'pending']),
            ),
          ),
        )
        .orderBy('o.updatedAt')
        .limit(limit),
    );
    return rows.map((row) => row.uuid);
  }

  /** The name a guest knows the business by (its title, else its meta_key). */
  async businessName(manager: EntityManager, businessUuid: string): Promise<string | null> {
    const [row] = await fetchAll(
      manager,
      db.selectFrom('entities').select(['titleName', 'metaKey']).where('uuid', '=', businessUuid),
    );
    return row?.titleName?.trim() || row?.metaKey || null;
  }

  /**
   * Claims an order for this transaction unless another holds it (another
   * replica's worker, or a member's update under way): the order's lock,
   * taken without waiting.
   */
  claim(manager: EntityManager, orderUuid: string): Promise<boolean> {
    return tryTransactionLock(manager, 'order', orderUuid);
  }
}
