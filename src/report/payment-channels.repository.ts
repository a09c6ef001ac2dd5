import { Injectable } from '@nestjs/common';
import { fetchAll, queryBuilder, sql, Table } from '../database/query-builder';
import { OrderEntity } from '../order';
import { PaymentEntity } from '../payment';
import { ReportRepository } from './report.repository';
import { ReportRange } from './report-range';
import { SALE_STATUSES } from './report-sql';

const db = queryBuilder<{
  payments: Table<PaymentEntity>;
  orders: Table<OrderEntity>;
}>();

export interface ChannelShareRow {
  channel: string;
  orders: number;
  total: string;
}

/**
 * The sales of a period by how they were paid: what the paid payments of
 * sale orders brought in, per channel, and how many orders each channel
 * paid (an order paid by two channels counts in both). Driven by the paid
 * payments of the business (payments_business_paid_idx), each joined to its
 * order for the period and the status.
 */
@Injectable()
export class PaymentChannelsRepository {
  constructor(private readonly reports: ReportRepository) {}

  /**
   * The sales of a period by where the orders came from (`online`, or the
   * team's `phone`, `walk_in`, `waiter`): how many and their totals
   * (orders_business_created_idx).
   */
  byOrderChannel(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
  ): Promise<ChannelShareRow[]> {
    return this.reports.inTimeZone(timeZone, (manager) =>
      fetchAll(
        manager,
        db
          .selectFrom('orders as o')
          .select([
            'o.channel',
            sql<number>`count(*)::int`.as('orders'),
            sql<string>`sum(o.amount)::numeric(20,2)::text`.as('total'),
          ])
          .where('o.businessUuid', '=', businessUuid)
          .where('o.status', 'in', SALE_STATUSES as OrderEntity['status'][])
          .where('o.createdAt', '>=', sql<Date>`${range.from}::date::timestamptz`)
          .where('o.createdAt', '<', sql<Date>`(${range.to}::date + 1)::timestamptz`)
          .groupBy('o.channel')
          .orderBy('o.channel'),
      ),
    );
  }

  byChannel(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
  ): Promise<ChannelShareRow[]> {
    return this.reports.inTimeZone(timeZone, (manager) =>
      fetchAll(
        manager,
        db
          .selectFrom('payments as p')
          .innerJoin('orders as o', 'o.uuid', 'p.orderUuid')
          .select([
            'p.channel',
            sql<number>`count(DISTINCT p.order_uuid)::int`.as('orders'),
            sql<string>`sum(p.amount_paid)::numeric(20,2)::text`.as('total'),
          ])
          .where('p.businessUuid', '=', businessUuid)
          // In the text, as the partial index payments_business_paid_idx names it.
          .where('p.status', '=', sql.lit('paid'))
          .where('o.businessUuid', '=', businessUuid)
          .where('o.status', 'in', SALE_STATUSES as OrderEntity['status'][])
          .where('o.createdAt', '>=', sql<Date>`${range.from}::date::timestamptz`)
          .where('o.createdAt', '<', sql<Date>`(${range.to}::date + 1)::timestamptz`)
          .groupBy('p.channel')
          .orderBy('p.channel'),
      ),
    );
  }
}
