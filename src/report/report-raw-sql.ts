/*
 * The reports computed from the orders themselves: every order of the
 * period is read. The sales report falls back to this when the business's
 * time zone does not keep 15-minute UTC slots whole in the period (see
 * report-rollup-sql.ts), and both are the reference the rollups are
 * checked against.
 */
import { GroupBy } from './dto/report-query.dto';
import {
  bucketKey,
  IN_PERIOD,
  ITEMS_ANSWER,
  KEY_TEXT,
  LOST_STATUSES,
  NOT_DELIVERY_LINE,
  OPEN_STATUSES,
  SALE_STATUSES,
  sqlList,
  moneyFigures,
} from './report-sql';

const money = (column: string) =>
  `COALESCE(sum(s.${column}) FILTER (WHERE s.sale), 0)::numeric(20,2)`;

/**
 * Sums as numeric (exact), read back as text. The period's orders are
 * scanned once and summed per (bucket, processor, fulfilment type, status),
 * a few thousand groups at most; the grouping sets (per bucket, per
 * processor, per type, the whole period) then add up those groups, not the
 * orders again.
 */
export function rawFiguresSql(groupBy: GroupBy): string {
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
           ${moneyFigures(money)},
           COALESCE(sum(s.amount - s.amount_refunded) FILTER (WHERE s.sale), 0)::numeric(20,2) AS net,
           COALESCE(round(sum(s.amount) FILTER (WHERE s.sale)
                          / NULLIF(sum(s.n) FILTER (WHERE s.sale), 0), 2), 0)::numeric(20,2)
             AS average_order
      FROM (SELECT ${bucketKey('o.created_at')[groupBy]} AS k, o.payment_processor, o.fulfilment_type, o.status,
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
export const RAW_ITEMS_SQL = `
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
  ), ${ITEMS_ANSWER}`;
