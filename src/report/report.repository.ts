import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { GroupBy } from './dto/report-query.dto';
import { ReportRange } from './report-range';
import {
  IN_PERIOD,
  LOCAL_ISO,
  LOST_STATUSES,
  NOT_DELIVERY_LINE,
  OPEN_STATUSES,
  PERIOD_START,
  SALE_STATUSES,
  sqlList,
} from './report-sql';

/** Sort memory of one report's transaction (PostgreSQL's default is 4MB). */
const REPORT_WORK_MEM = '32MB';

/** One bucket of the period, before any order is counted in it. */
export interface BucketRow {
  key: string;
  label: string;
  start: string | null;
}

/** Sums of one grouping: a bucket (`key`), a processor, a fulfilment type, or the whole period. */
export interface FiguresRow {
  grouping: 'bucket' | 'processor' | 'fulfilment' | 'total';
  key: string | null;
  orders: number;
  open_orders: number;
  lost_orders: number;
  items_subtotal: string;
  discount: string;
  service_charge: string;
  tax: string;
  tip: string;
  delivery_fee: string;
  total: string;
  refunded: string;
  net: string;
  average_order: string;
}

export interface ItemRow {
  item_uuid: string;
  title_name: string | null;
  quantity: string;
  revenue: string;
  orders: number;
  options: Array<{ group: string; option: string; option_title: string | null; count: number }>;
}

/**
 * The key of an order's bucket, in the session's (the business's) time
 * zone: a date or a number, cheap to compute per row; its text is written
 * once per bucket (KEY_TEXT).
 */
const ORDER_KEY: Record<GroupBy, string> = {
  day: `o.created_at::date`,
  // Whole hours since the period began: a day with a clock change has 23 or 25 of them.
  hour: `floor((extract(epoch FROM o.created_at) - extract(epoch FROM ${PERIOD_START})) / 3600)::int`,
  weekday: `extract(isodow FROM o.created_at)::int`,
  month: `date_trunc('month', o.created_at)`,
};

const KEY_TEXT: Record<GroupBy, string> = {
  day: `to_char(s.k, 'YYYY-MM-DD')`,
  hour: 's.k::text',
  weekday: 's.k::text',
  month: `to_char(s.k, 'YYYY-MM')`,
};

/** The period's bounds in the bucket queries, which take only ($1 first day, $2 last day). */
const FIRST = '$1::date::timestamptz';
const AFTER = '($2::date + 1)::timestamptz';

/** Every bucket of the period with its key, label and local start; weekdays take no parameter. */
const BUCKETS: Record<GroupBy, string> = {
  day: `SELECT to_char(d, 'YYYY-MM-DD') AS key, to_char(d, 'YYYY-MM-DD') AS label,
               to_char(d::timestamptz, ${LOCAL_ISO}) AS start
          FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') AS d
         ORDER BY d`,
  hour: `SELECT i::text AS key, to_char(${FIRST} + i * interval '1 hour', 'YYYY-MM-DD HH24:00') AS label,
                to_char(${FIRST} + i * interval '1 hour', ${LOCAL_ISO}) AS start
           FROM generate_series(0, ceil((extract(epoch FROM ${AFTER})
                  - extract(epoch FROM ${FIRST})) / 3600)::int - 1) AS i
          ORDER BY i`,
  weekday: `SELECT i::text AS key,
                   (ARRAY['mon','tue','wed','thu','fri','sat','sun'])[i] AS label, NULL::text AS start
              FROM generate_series(1, 7) AS i
             ORDER BY i`,
  month: `SELECT to_char(m, 'YYYY-MM') AS key, to_char(m, 'YYYY-MM') AS label,
                 to_char(greatest(m, $1::date::timestamp)::timestamptz, ${LOCAL_ISO}) AS start
            FROM generate_series(date_trunc('month', $1::date::timestamp), $2::date::timestamp,
                                 interval '1 month') AS m
           ORDER BY m`,
};

const money = (column: string) =>
  `COALESCE(sum(s.${column}) FILTER (WHERE s.sale), 0)::numeric(20,2)`;

/**
 * Sums as numeric (exact), read back as text. The period's orders are
 * scanned once and summed per (bucket, processor, fulfilment type, status),
 * a few thousand groups at most; the grouping sets (per bucket, per
 * processor, per type, the whole period) then add up those groups, not the
 * orders again.
 */
export function figuresSql(groupBy: GroupBy): string {
  return `
    SELECT CASE WHEN GROUPING(s.k) = 0 THEN 'bucket'
                WHEN GROUPING(s.payment_processor) = 0 THEN 'processor'
                WHEN GROUPING(s.fulfilment_type) = 0 THEN 'fulfilment'
                ELSE 'total' END AS grouping,
           COALESCE(${KEY_TEXT[groupBy]}, s.payment_processor, s.fulfilment_type) AS key,
           COALESCE(sum(s.n) FILTER (WHERE s.sale), 0)::int AS orders,
           COALESCE(sum(s.n) FILTER (WHERE s.status IN (${sqlList(OPEN_STATUSES)})), 0)::int
             AS open_orders,
           COALESCE(sum(s.n) FILTER (WHERE s.status IN (${sqlList(LOST_STATUSES)})), 0)::int
             AS lost_orders,
           ${money('items_subtotal')} AS items_subtotal,
           ${money('discount')} AS discount,
           ${money('service_charge')} AS service_charge,
           ${money('tax')} AS tax,
           ${money('tip')} AS tip,
           ${money('delivery_fee')} AS delivery_fee,
           ${money('amount')} AS total,
           ${money('amount_refunded')} AS refunded,
           COALESCE(sum(s.amount - s.amount_refunded) FILTER (WHERE s.sale), 0)::numeric(20,2) AS net,
           COALESCE(round(sum(s.amount) FILTER (WHERE s.sale)
                          / NULLIF(sum(s.n) FILTER (WHERE s.sale), 0), 2), 0)::numeric(20,2)
             AS average_order
      FROM (SELECT ${ORDER_KEY[groupBy]} AS k, o.payment_processor, o.fulfilment_type, o.status,
                   o.status IN (${sqlList(SALE_STATUSES)}) AS sale, count(*) AS n,
                   sum(o.items_subtotal) AS items_subtotal, sum(o.discount) AS discount,
                   sum(o.service_charge) AS service_charge, sum(o.tax) AS tax, sum(o.tip) AS tip,
                   sum(o.delivery_fee) AS delivery_fee, sum(o.amount) AS amount,
                   sum(o.amount_refunded) AS amount_refunded
              FROM orders o
             WHERE ${IN_PERIOD}
             GROUP BY 1, 2, 3, 4) AS s
     GROUP BY GROUPING SETS ((s.k), (s.payment_processor), (s.fulfilment_type), ())`;
}

/**
 * The period's sales by item. One join finds the lines of the period's
 * sales (the orders through orders_business_created_idx, a range scan on
 * both leading columns; each order's lines through
 * order_lines_order_position_key): with no statistics the range is
 * estimated at one row, so the planner takes the nested loop over the
 * unique index, whose cost grows with this business's lines only, never
 * with the whole table. The lines are then aggregated twice, each time
 * over few columns: per item (`top`: sums and distinct orders, an in-memory
 * sort of narrow rows), and for the top items only per (item, title,
 * options) (`kinds`: a few rows per item, since lines of one item carry few
 * distinct titles and option sets). Titles and option titles are read from
 * those few rows (the latest by placement time, ties by title), and the
 * options JSON is expanded once per kind instead of once per line.
 */
export const ITEMS_SQL = `
  WITH sold AS MATERIALIZED (
    SELECT l.item_uuid, l.order_uuid, l.quantity, l.line_total, l.title_name, l.options,
           o.created_at
      FROM orders o
      JOIN order_lines l ON l.order_uuid = o.uuid
     WHERE ${IN_PERIOD}
       AND o.status IN (${sqlList(SALE_STATUSES)})
       AND ${NOT_DELIVERY_LINE}
  ), top AS (
    SELECT item_uuid, sum(quantity) AS quantity, sum(line_total)::numeric(20,2) AS revenue,
           count(DISTINCT order_uuid)::int AS orders
      FROM sold
     GROUP BY item_uuid
     ORDER BY revenue DESC, quantity DESC, item_uuid
     LIMIT $4
  ), kinds AS MATERIALIZED (
    SELECT s.item_uuid, s.title_name, s.options, sum(s.quantity) AS quantity,
           max(s.created_at) AS last_at
      FROM sold s
      JOIN top t ON t.item_uuid = s.item_uuid
     GROUP BY s.item_uuid, s.title_name, s.options
  ), titles AS (
    SELECT DISTINCT ON (item_uuid) item_uuid, title_name
      FROM kinds
     ORDER BY item_uuid, last_at DESC, title_name DESC
  ), chosen AS (
    SELECT k.item_uuid, opt->>'group' AS "group", opt->>'option' AS option,
           (array_agg(opt->>'option_title' ORDER BY k.last_at DESC))[1] AS option_title,
           sum(k.quantity) AS count
      FROM kinds k
     CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(k.options) = 'array' THEN k.options ELSE '[]'::jsonb END) AS opt
     GROUP BY k.item_uuid, opt->>'group', opt->>'option'
  ), options AS (
    SELECT item_uuid, json_agg(json_build_object('group', "group", 'option', option,
                                 'option_title', option_title, 'count', count)
                                 ORDER BY count DESC, "group", option) AS options
      FROM chosen
     GROUP BY item_uuid
  )
  SELECT t.item_uuid::text AS item_uuid, n.title_name, t.quantity::text AS quantity,
         t.revenue::text AS revenue, t.orders, COALESCE(c.options, '[]'::json) AS options
    FROM top t
    JOIN titles n ON n.item_uuid = t.item_uuid
    LEFT JOIN options c ON c.item_uuid = t.item_uuid
   ORDER BY t.revenue DESC, t.quantity DESC, t.item_uuid`;

/** The report queries: all of their SQL. */
@Injectable()
export class ReportRepository {
  private readonly businessType: string;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() config: AppConfig,
  ) {
    this.businessType = `${config.namespace}_business`;
  }

  /** The business's extra_data (its opening hours carry the time zone). */
  async businessExtraData(businessUuid: string): Promise<Record<string, unknown> | null> {
    const rows: Array<{ extra_data: Record<string, unknown> | null }> = await this.dataSource.query(
      'SELECT extra_data FROM entities WHERE uuid = $1 AND entity_type = $2',
      [businessUuid, this.businessType],
    );
    return rows[0]?.extra_data ?? null;
  }

  /**
   * Runs `work` in a transaction whose TimeZone is `timeZone`. A year's
   * report sorts a few hundred thousand small rows; a larger work_mem lets that
   * sort stay in memory instead of spilling to disk, for this transaction only.
   */
  inTimeZone<T>(timeZone: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `SELECT set_config('TimeZone', $1, true), set_config('work_mem', '${REPORT_WORK_MEM}', true)`,
        [timeZone],
      );
      return work(manager);
    });
  }

  async sales(
    businessUuid: string,
    range: ReportRange,
    groupBy: GroupBy,
    timeZone: string,
  ): Promise<{ buckets: BucketRow[]; figures: FiguresRow[] }> {
    return this.inTimeZone(timeZone, async (manager) => {
      const buckets: BucketRow[] = await manager.query(
        BUCKETS[groupBy],
        groupBy === 'weekday' ? [] : [range.from, range.to],
      );
      const figures: FiguresRow[] = await manager.query(figuresSql(groupBy), [
        businessUuid,
        range.from,
        range.to,
      ]);
      return { buckets, figures };
    });
  }

  async items(
    businessUuid: string,
    range: ReportRange,
    limit: number,
    timeZone: string,
  ): Promise<ItemRow[]> {
    return this.inTimeZone(timeZone, (manager) =>
      manager.query(ITEMS_SQL, [businessUuid, range.from, range.to, limit]),
    );
  }
}
