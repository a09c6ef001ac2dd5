/*
 * SQL pieces the report and export queries share. Every query runs in a
 * transaction whose TimeZone is the business's (set_config(..., true)), so
 * `date::timestamptz`, `to_char(timestamptz)` and `extract(... from
 * timestamptz)` all speak the business's local time, daylight saving
 * included, and nothing is left behind on the pooled connection.
 */
import { GroupBy } from './dto/report-query.dto';

/** Statuses that count as a sale; pending ones are open, rejected and cancelled ones lost. */
export const SALE_STATUSES = ['accepted', 'preparing', 'ready', 'out_for_delivery', 'completed'];
export const OPEN_STATUSES = ['pending'];
export const LOST_STATUSES = ['rejected', 'cancelled'];

/** Local time with the offset of that moment: 2026-10-25T01:30:00+01:00. */
export const LOCAL_ISO = `'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM'`;

/** The period's first instant ($2: first local day) and the instant after it ($3: last local day). */
export const PERIOD_START = '$2::date::timestamptz';
export const PERIOD_END = '($3::date + 1)::timestamptz';

/**
 * The orders of business $1 placed in the period: a range scan of
 * orders_business_created_idx (business_uuid, created_at, uuid), the only
 * index whose leading columns are both bounded here, so the plan does not
 * depend on statistics.
 */
export const IN_PERIOD = `o.business_uuid = $1 AND o.created_at >= ${PERIOD_START} AND o.created_at < ${PERIOD_END}`;

/** Lines of the `Delivery` category carry the delivery fee; they are not items. */
export const NOT_DELIVERY_LINE = `lower(btrim(COALESCE(l.category, ''))) <> 'delivery'`;

export function sqlList(values: readonly string[]): string {
  return values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ');
}

/**
 * The key of the bucket of the instant `at` (an order's placement, or the
 * start of a 15-minute slot), in the session's (the business's) time zone:
 * a date or a number, cheap to compute per row; its text is written once
 * per bucket (KEY_TEXT).
 */
export function bucketKey(at: string): Record<GroupBy, string> {
  return {
    day: `${at}::date`,
    // Whole hours since the period began: a day with a clock change has 23 or 25 of them.
    hour: `floor((extract(epoch FROM ${at}) - extract(epoch FROM ${PERIOD_START})) / 3600)::int`,
    weekday: `extract(isodow FROM ${at})::int`,
    month: `date_trunc('month', ${at})`,
  };
}

export const KEY_TEXT: Record<GroupBy, string> = {
  day: `to_char(s.k, 'YYYY-MM-DD')`,
  hour: 's.k::text',
  weekday: 's.k::text',
  month: `to_char(s.k, 'YYYY-MM')`,
};

/**
 * The end of both items queries (over the rollups and over the orders): the
 * options of each top item as JSON, most chosen first, and the rows in the
 * report's order, by revenue, then quantity, then item. Expects CTEs `top`
 * (item_uuid, quantity, revenue, orders), `titles` (item_uuid, title_name)
 * and `chosen` (item_uuid, group, option, option_title, count).
 */
export const ITEMS_ANSWER = `options AS (
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

/** The money figures of a report row: the orders' column summed, and the answer's field. */
const MONEY_FIGURES: ReadonlyArray<[column: string, field: string]> = [
  ['items_subtotal', 'items_subtotal'],
  ['discount', 'discount'],
  ['service_charge', 'service_charge'],
  ['tax', 'tax'],
  ['tip', 'tip'],
  ['delivery_fee', 'delivery_fee'],
  ['amount', 'total'],
  ['amount_refunded', 'refunded'],
];

/** The select list of the money figures, each column summed by `sum`. */
export function moneyFigures(sum: (column: string) => string): string {
  return MONEY_FIGURES.map(([column, field]) => `${sum(column)} AS ${field}`).join(',\n');
}
