/*
 * The reports read from the rollups the database keeps (the migration
 * OrderReportRollups explains their tables, triggers and folding):
 *
 * - report_sales_slots: per business and 15-minute UTC slot. Each bucket
 *   (local hour, day, weekday, month) is a sum of whole slots as long as
 *   the zone's offsets in the period are multiples of 15 minutes, which
 *   BOUNDS_SQL checks (`aligned`); otherwise the report reads the orders.
 * - report_sales_days, report_item_days, report_option_days: per business
 *   and UTC day. The UTC days wholly inside the period come from these; the
 *   two partial days at the period's edges (local midnight is rarely UTC
 *   midnight) from the orders, as the raw queries read them.
 *
 * Why the plans hold without statistics (autovacuum may be off and these
 * tables never analysed): every rollup read is `business_uuid = $1 AND
 * slot|day in a range`, the two leading columns of the table's primary key
 * (or unique index), so an index range scan is the only access that bounds
 * both and costs least at any estimated row count; the edges are two range
 * scans of orders_business_created_idx, each under a day long, joined to
 * their lines through order_lines_order_position_key, as in the raw
 * queries, with their bounds as parameter values (so an analysed table
 * estimates them as the few hundred orders they are, not as a share of
 * the business's orders). A year is at most 35,136 slot rows and 366 day
 * rows per (processor, fulfilment type) or item, whatever the number of
 * orders. With statistics, a business owning most of a rollup table may
 * get a sequential scan of it instead: the planner takes it only where it
 * estimates it cheaper.
 */
import { GroupBy } from './dto/report-query.dto';
import {
  bucketKey,
  ITEMS_ANSWER,
  KEY_TEXT,
  NOT_DELIVERY_LINE,
  PERIOD_END,
  PERIOD_START,
  SALE_STATUSES,
  sqlList,
  moneyFigures,
} from './report-sql';

/** Moves the business's pending deltas into its rollups, in the report's own transaction. */
export const FOLD_SQL = 'SELECT report_rollups_fold($1::uuid)';

/**
 * The period's bounds, read first so that the rollup queries get them as
 * parameters (the planner then estimates the edges' ranges from their
 * values): the UTC days wholly inside the period (full_first … full_after,
 * as dates first_day … after_day), and `aligned`: whether every local
 * bucket of the period ($1 first day, $2 last day) is made of whole
 * 15-minute UTC slots, i.e. the zone's offset, sampled every hour of the
 * period, is always a multiple of 15 minutes (every zone in use today; not
 * the local mean times of the 19th century). A period holding no whole UTC
 * day has none, and its one edge is the whole period. `interval '24
 * hours'`, not '1 day': the session's zone may change its clocks that day.
 */
export const BOUNDS_SQL = `
  WITH p AS (
    SELECT $1::date::timestamptz AS first, ($2::date + 1)::timestamptz AS after
  ), u AS (
    SELECT first, after, date_trunc('day', after, 'UTC') AS fe,
           CASE WHEN date_trunc('day', first, 'UTC') = first THEN first
                ELSE date_trunc('day', first, 'UTC') + interval '24 hours' END AS fs
      FROM p
  ), f AS (
    SELECT CASE WHEN fs < fe THEN fs ELSE after END AS fs,
           CASE WHEN fs < fe THEN fe ELSE after END AS fe
      FROM u
  )
  SELECT to_char(f.fs AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS+00') AS full_first,
         to_char(f.fe AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS+00') AS full_after,
         to_char(f.fs AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first_day,
         to_char(f.fe AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS after_day,
         (SELECT COALESCE(bool_and(extract(timezone FROM h)::int % 900 = 0), true)
            FROM p, generate_series(p.first, p.after, interval '1 hour') AS h) AS aligned
    FROM f`;

export interface PeriodBounds {
  full_first: string;
  full_after: string;
  first_day: string;
  after_day: string;
  aligned: boolean;
}

/** Parameters of the rollup queries: $1 business, $2 first and $3 last local day, then the bounds. */
export function rollupParams(business: string, from: string, to: string, b: PeriodBounds) {
  return [business, from, to, b.full_first, b.full_after, b.first_day, b.after_day];
}

/** The UTC days wholly inside the period, of rollup `r`. */
const FULL_DAYS = `r.business_uuid = $1 AND r.day >= $6::date AND r.day < $7::date`;

/**
 * The orders of business $1 placed in the period's edges (`o`): two range
 * scans of orders_business_created_idx, each under a day long.
 */
const EDGE_ORDERS = `(
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= ${PERIOD_START} AND created_at < $4::timestamptz
  UNION ALL
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= $5::timestamptz AND created_at < ${PERIOD_END}
) AS o`;

const MONEY = [
  'items_subtotal',
  'discount',
  'service_charge',
  'tax',
  'tip',
  'delivery_fee',
  'amount',
  'amount_refunded',
];
const MEASURES = ['sale_orders', 'open_orders', 'lost_orders', ...MONEY];

/** An order's measures as a rollup holds them: counts by outcome, money of sales only. */
const ORDER_MEASURES = [
  `(o.status IN (${sqlList(SALE_STATUSES)}))::int AS sale_orders`,
  `(o.status = 'pending')::int AS open_orders`,
  `(o.status IN ('rejected', 'cancelled'))::int AS lost_orders`,
  ...MONEY.map(
    (m) => `CASE WHEN o.status IN (${sqlList(SALE_STATUSES)}) THEN o.${m} ELSE 0 END AS ${m}`,
  ),
].join(', ');

const money = (column: string) => `COALESCE(sum(s.${column}), 0)::numeric(20,2)`;

/** The figures of a group of rollup-shaped rows `s`, as the report answers them. */
const FIGURES = `
  COALESCE(sum(s.sale_orders), 0)::int AS orders,
  COALESCE(sum(s.open_orders), 0)::int AS open_orders,
  COALESCE(sum(s.lost_orders), 0)::int AS lost_orders,
  ${moneyFigures(money)},
  COALESCE(sum(s.amount) - sum(s.amount_refunded), 0)::numeric(20,2) AS net,
  COALESCE(round(sum(s.amount) / NULLIF(sum(s.sale_orders), 0), 2), 0)::numeric(20,2)
    AS average_order`;

/**
 * The sales figures: per bucket and for the whole period from the slots;
 * per payment processor and per fulfilment type from the whole UTC days
 * plus the orders of the edges. Same rows as the raw query.
 */
export function rollupFiguresSql(groupBy: GroupBy): string {
  return `
    SELECT CASE WHEN GROUPING(s.k) = 0 THEN 'bucket' ELSE 'total' END AS grouping,
           ${KEY_TEXT[groupBy]} AS key, ${FIGURES}
      FROM (SELECT ${bucketKey('r.slot')[groupBy]} AS k, r.*
              FROM report_sales_slots r
             WHERE r.business_uuid = $1 AND r.slot >= ${PERIOD_START}
               AND r.slot < ${PERIOD_END}) AS s
     GROUP BY GROUPING SETS ((s.k), ())
    UNION ALL
    SELECT CASE WHEN GROUPING(s.payment_processor) = 0 THEN 'processor' ELSE 'fulfilment' END,
           COALESCE(s.payment_processor, s.fulfilment_type), ${FIGURES}
      FROM (SELECT r.payment_processor, r.fulfilment_type, ${MEASURES.map((m) => `r.${m}`).join(', ')}
              FROM report_sales_days r
             WHERE ${FULL_DAYS}
            UNION ALL
            SELECT o.payment_processor, o.fulfilment_type, ${ORDER_MEASURES}
              FROM ${EDGE_ORDERS}) AS s
     GROUP BY GROUPING SETS ((s.payment_processor), (s.fulfilment_type))`;
}

/**
 * The items report: per item over the whole UTC days (rows of an order
 * count per item and title, an order counted once per item) plus the
 * edges' lines summed the same way, ranked; the latest title and the
 * options chosen for the top items only. Rows left at zero by a later
 * change (orders = 0, lines = 0) are not read.
 */
export const ROLLUP_ITEMS_SQL = `
  WITH edge AS MATERIALIZED (
    SELECT l.item_uuid, o.uuid AS order_uuid, o.created_at, l.title_name, l.quantity,
           l.line_total, l.options
      FROM ${EDGE_ORDERS}
      JOIN order_lines l ON l.order_uuid = o.uuid
     WHERE o.status IN (${sqlList(SALE_STATUSES)})
       AND ${NOT_DELIVERY_LINE}
  ), sold AS MATERIALIZED (
    SELECT r.item_uuid, r.title_name, r.quantity, r.revenue, r.orders, r.last_at
      FROM report_item_days r
     WHERE ${FULL_DAYS} AND r.orders > 0
    UNION ALL
    SELECT item_uuid, (array_agg(title_name ORDER BY title_name DESC NULLS FIRST))[1],
           sum(quantity), sum(line_total), 1, created_at
      FROM edge
     GROUP BY item_uuid, order_uuid, created_at
  ), top AS (
    SELECT item_uuid, sum(quantity) AS quantity, sum(revenue)::numeric(20,2) AS revenue,
           sum(orders)::int AS orders
      FROM sold
     GROUP BY item_uuid
     ORDER BY revenue DESC, quantity DESC, item_uuid
     LIMIT $8
  ), titles AS (
    SELECT DISTINCT ON (s.item_uuid) s.item_uuid, s.title_name
      FROM sold s
      JOIN top t ON t.item_uuid = s.item_uuid
     ORDER BY s.item_uuid, s.last_at DESC, s.title_name DESC
  ), period_options AS MATERIALIZED (
    SELECT r.item_uuid, r."group", r.option, r.option_title, r.count, r.last_at
      FROM report_option_days r
     WHERE ${FULL_DAYS} AND r.lines > 0
    UNION ALL
    SELECT e.item_uuid, opt->>'group', opt->>'option', opt->>'option_title', e.quantity,
           e.created_at
      FROM edge e
     CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(e.options) = 'array' THEN e.options ELSE '[]'::jsonb END) AS opt
  ), chosen AS (
    SELECT p.item_uuid, p."group", p.option,
           (array_agg(p.option_title ORDER BY p.last_at DESC, p.option_title DESC))[1]
             AS option_title,
           sum(p.count) AS count
      FROM period_options p
      JOIN top t ON t.item_uuid = p.item_uuid
     GROUP BY p.item_uuid, p."group", p.option
  ), ${ITEMS_ANSWER}`;
