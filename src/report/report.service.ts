import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth.decorator';
import { AccessPolicy } from '../team';
import { ItemsReportQueryDto, SalesReportQueryDto } from './dto/report-query.dto';
import { DEFAULT_ITEMS_LIMIT } from './dto/report-query.dto';
import { ItemsReportResponseDto } from './dto/items-report.dto';
import { SalesFiguresDto, SalesReportResponseDto, SalesShareDto } from './dto/sales-report.dto';
import { FiguresRow, ReportRepository } from './report.repository';
import { PaymentChannelsRepository } from './payment-channels.repository';
import { businessTimeZone, parseReportRange, ReportRange } from './report-range';

/** How orders can be handed over; each is listed in the sales report, with zeros if unused. */
const FULFILMENT_TYPES = ['dine_in', 'pickup', 'delivery'];

const ZERO = '0.00';

function emptyFigures(): SalesFiguresDto {
  return {
    orders: 0,
    open_orders: 0,
    lost_orders: 0,
    items_subtotal: ZERO,
    discount: ZERO,
    service_charge: ZERO,
    tax: ZERO,
    tip: ZERO,
    delivery_fee: ZERO,
    total: ZERO,
    refunded: ZERO,
    net: ZERO,
    average_order: ZERO,
  };
}

function figuresOf(row: FiguresRow | undefined): SalesFiguresDto {
  if (!row) return emptyFigures();
  return {
    orders: row.orders,
    open_orders: row.open_orders,
    lost_orders: row.lost_orders,
    items_subtotal: row.items_subtotal,
    discount: row.discount,
    service_charge: row.service_charge,
    tax: row.tax,
    tip: row.tip,
    delivery_fee: row.delivery_fee,
    total: row.total,
    refunded: row.refunded,
    net: row.net,
    average_order: row.average_order,
  };
}

/**
 * What sold, when and for how much, in the business's own days. Owners and
 * managers may read them; staff may not. A business the caller has no part
 * in answers 404.
 */
@Injectable()
export class ReportService {
  constructor(
    private readonly access: AccessPolicy,
    private readonly reports: ReportRepository,
    private readonly channels: PaymentChannelsRepository,
  ) {}

  /** Refuses unless the caller may read the business's reports; its time zone and the period. */
  async open(
    user: AuthUser,
    businessUuid: string,
    from: string,
    to: string,
  ): Promise<{ timeZone: string; range: ReportRange }> {
    await this.access.requireAccess(user, 'report.read', businessUuid, {
      noPart: 'not_found',
      message: 'Business not found.',
    });
    const range = parseReportRange(from, to);
    const timeZone = businessTimeZone(await this.reports.businessExtraData(businessUuid));
    return { timeZone, range };
  }

  async sales(
    user: AuthUser,
    businessUuid: string,
    query: SalesReportQueryDto,
  ): Promise<SalesReportResponseDto> {
    const { timeZone, range } = await this.open(user, businessUuid, query.from, query.to);
    const groupBy = query.group_by ?? 'day';
    const { buckets, figures } = await this.reports.sales(businessUuid, range, groupBy, timeZone);
    const byChannel: Record<string, SalesShareDto> = {};
    for (const row of await this.channels.byChannel(businessUuid, range, timeZone)) {
      byChannel[row.channel] = { orders: row.orders, total: row.total };
    }
    const byOrderChannel: Record<string, SalesShareDto> = {};
    for (const row of await this.channels.byOrderChannel(businessUuid, range, timeZone)) {
      byOrderChannel[row.channel] = { orders: row.orders, total: row.total };
    }
    const byBucket = new Map<string, FiguresRow>();
    const byProcessor: Record<string, SalesShareDto> = {};
    const byFulfilment: Record<string, SalesShareDto> = {};
    for (const type of FULFILMENT_TYPES) byFulfilment[type] = { orders: 0, total: ZERO };
    let totals: FiguresRow | undefined;
    for (const row of figures) {
      if (row.grouping === 'total') totals = row;
      else if (row.grouping === 'bucket' && row.key !== null) byBucket.set(row.key, row);
      else if (row.key !== null && row.orders > 0) {
        const share = { orders: row.orders, total: row.total };
        if (row.grouping === 'processor') byProcessor[row.key] = share;
        else byFulfilment[row.key] = share;
      }
    }
    return {
      timezone: timeZone,
      from: range.from,
      to: range.to,
      group_by: groupBy,
      rows: buckets.map((bucket) => ({
        start: bucket.start,
        label: bucket.label,
        ...figuresOf(byBucket.get(bucket.key)),
      })),
      totals: figuresOf(totals),
      by_payment_processor: byProcessor,
      by_payment_channel: byChannel,
      by_fulfilment_type: byFulfilment,
      by_channel: byOrderChannel,
    };
  }

  async items(
    user: AuthUser,
    businessUuid: string,
    query: ItemsReportQueryDto,
  ): Promise<ItemsReportResponseDto> {
    const { timeZone, range } = await this.open(user, businessUuid, query.from, query.to);
    const rows = await this.reports.items(
      businessUuid,
      range,
      query.limit ?? DEFAULT_ITEMS_LIMIT,
      timeZone,
    );
    return {
      timezone: timeZone,
      from: range.from,
      to: range.to,
      rows: rows.map((row) => ({
        item_uuid: row.item_uuid,
        title_name: row.title_name,
        quantity: Number(row.quantity),
        revenue: row.revenue,
        orders: row.orders,
        options: row.options.map((option) => ({
          group: option.group,
          option: option.option,
          option_title: option.option_title,
          count: Number(option.count),
        })),
      })),
    };
  }
}
