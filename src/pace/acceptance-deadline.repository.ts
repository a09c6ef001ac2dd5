import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { RawBuilder } from 'kysely';
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

/**
 * A jsonb value as whole minutes, or NULL: a number, or a string of digits
 * (settings written by hand), never an error for anything else.
 */
function minutesOf(value: RawBuilder<unknown>): RawBuilder<number | null> {
  return sql<number | null>`CASE
    WHEN jsonb_typeof(${value}) = 'number' AND (${value} #>> '{}') ~ '^[0-9]{1,4}(\\.0+)?$'
      THEN (${value} #>> '{}')::numeric::int
    WHEN jsonb_typeof(${value}) = 'string' AND (${value} #>> '{}') ~ '^\\s*[0-9]{1,4}\\s*$'
      THEN trim(${value} #>> '{}')::int
    END`;
}

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
   * Pending orders past their deadline at `now` (R90), the longest overdue
   * first: an order for now `acceptance_deadline_minutes` after it was
   * placed, an order for later at its requested time minus the menu's prep
   * time. A business without the setting (or with one that does not read as
   * a whole number of minutes) has none. The caller computes the deadline
   * again from the facts before acting.
   */
  async candidates(now: Date, limit: number): Promise<PendingOrderFacts[]> {
    const deadlineMinutes = minutesOf(sql`b.extra_data -> 'acceptance_deadline_minutes'`);
    const prepMinutes = sql`coalesce(${minutesOf(sql`m.extra_data -> 'fulfilment' -> 'prep_time_minutes'`)}, 0)`;
    const deadline = sql<Date>`CASE WHEN o.requested_time IS NULL
        THEN o.created_at + make_interval(mins => ${deadlineMinutes})
        ELSE o.requested_time - make_interval(mins => ${prepMinutes}) END`;
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
        .where(sql<boolean>`${deadlineMinutes} BETWEEN 1 AND 240`)
        .where(sql<boolean>`date_trunc('milliseconds', ${deadline}) <= ${now}`)
        .orderBy(deadline)
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
