/*
 * The SQL of the migration OrderReportRollups1795760000000 (its tables,
 * triggers and functions are described there), kept as it was written.
 * Later migrations that replace a function build on the parts exported.
 */
export const SALE = `'accepted', 'preparing', 'ready', 'out_for_delivery', 'completed'`;
const OPEN = `'pending'`;
const LOST = `'rejected', 'cancelled'`;
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
const ORDER_COLUMNS = [
  'business_uuid',
  'created_at',
  'status',
  'payment_processor',
  'fulfilment_type',
  ...MONEY,
];
const LINE_COLUMNS = [
  'uuid',
  'order_uuid',
  'item_uuid',
  'title_name',
  'category',
  'quantity',
  'line_total',
  'options',
];
const SLOT = (at: string) => `to_timestamp(floor(extract(epoch FROM ${at}) / 900) * 900)`;
const UTC_DAY = (at: string) => `(${at} AT TIME ZONE 'UTC')::date`;

const measureColumns = (type: (m: string) => string) =>
  MEASURES.map((m) => `"${m}" ${type(m)} NOT NULL DEFAULT 0`).join(', ');
export const salesMeasureTypes = measureColumns((m) =>
  MONEY.includes(m) ? 'numeric(20,2)' : 'bigint',
);

/** Sales deltas of signed order rows: (sign, the order's columns). */
function salesDeltas(source: string): string {
  const money = MONEY.map(
    (m) => `COALESCE(sum(c.sign * c.${m}) FILTER (WHERE c.status IN (${SALE})), 0)`,
  );
  return `
    INSERT INTO report_sales_deltas (business_uuid, slot, payment_processor, fulfilment_type,
                                     ${MEASURES.join(', ')})
    SELECT c.business_uuid, ${SLOT('c.created_at')}, c.payment_processor, c.fulfilment_type,
           COALESCE(sum(c.sign) FILTER (WHERE c.status IN (${SALE})), 0),
           COALESCE(sum(c.sign) FILTER (WHERE c.status IN (${OPEN})), 0),
           COALESCE(sum(c.sign) FILTER (WHERE c.status IN (${LOST})), 0),
           ${money.join(', ')}
      FROM (${source}) AS c
     WHERE c.status IN (${SALE}, ${OPEN}, ${LOST})
     GROUP BY 1, 2, 3, 4`;
}

/**
 * Item and option deltas of signed lines: (sign, business_uuid, created_at,
 * order_uuid, and the line's columns), each sign a whole set of lines of
 * one order. Per (sign, order, item) the order counts once, under the title
 * first in descending order (NULL first), as the report's title pick would.
 */
export function itemDeltas(source: string): string {
  return `
    WITH s AS MATERIALIZED (
      SELECT * FROM (${source}) AS x
       WHERE lower(btrim(COALESCE(x.category, ''))) <> 'delivery'
    ), per_order AS (
      SELECT s.sign, s.business_uuid, s.created_at, s.order_uuid, s.item_uuid,
             (array_agg(s.title_name ORDER BY s.title_name DESC NULLS FIRST))[1] AS title_name,
             sum(s.quantity) AS quantity, sum(s.line_total) AS revenue
        FROM s
       GROUP BY s.sign, s.business_uuid, s.created_at, s.order_uuid, s.item_uuid
    ), items AS (
      INSERT INTO report_item_deltas (business_uuid, day, item_uuid, title_name, quantity,
                                      revenue, orders, last_at, removed)
      SELECT business_uuid, ${UTC_DAY('created_at')}, item_uuid, title_name,
             sum(sign * quantity), sum(sign * revenue), sum(sign),
             max(created_at) FILTER (WHERE sign > 0), bool_or(sign < 0)
        FROM per_order
       GROUP BY 1, 2, 3, 4
    )
    INSERT INTO report_option_deltas (business_uuid, day, item_uuid, "group", option,
                                      option_title, count, lines, last_at, removed)
    SELECT s.business_uuid, ${UTC_DAY('s.created_at')}, s.item_uuid, opt->>'group',
           opt->>'option', opt->>'option_title', sum(s.sign * s.quantity), sum(s.sign),
           max(s.created_at) FILTER (WHERE s.sign > 0), bool_or(s.sign < 0)
      FROM s
     CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(s.options) = 'array' THEN s.options ELSE '[]'::jsonb END) AS opt
     GROUP BY 1, 2, 3, 4, 5, 6`;
}

const lineCols = (alias: string) => LINE_COLUMNS.map((c) => `${alias}.${c}`).join(', ');

/** The lines of signed orders (sign, order columns incl. uuid) that are sales. */
export const linesOfSales = (orders: string) => `
  SELECT o.sign, o.business_uuid, o.created_at, ${lineCols('l')}
    FROM (${orders}) AS o
    JOIN order_lines l ON l.order_uuid = o.uuid
   WHERE o.status IN (${SALE})`;

const orderCols = (alias: string) => ORDER_COLUMNS.map((c) => `${alias}.${c}`).join(', ');
const changed = `ROW(${orderCols('o')}) IS DISTINCT FROM ROW(${orderCols('n')})`;
export const itemsChanged = `ROW(o.business_uuid, o.created_at, o.status IN (${SALE}))
  IS DISTINCT FROM ROW(n.business_uuid, n.created_at, n.status IN (${SALE}))`;

export const ORDERS_TRIGGER = `
CREATE FUNCTION report_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${salesDeltas(`SELECT 1 AS sign, ${orderCols('n')} FROM new_rows n`)};
  ELSIF TG_OP = 'DELETE' THEN
    ${salesDeltas(`SELECT -1 AS sign, ${orderCols('o')} FROM old_rows o`)};
  ELSE
    ${salesDeltas(`
      SELECT -1 AS sign, ${orderCols('o')} FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE ${changed}
      UNION ALL
      SELECT 1, ${orderCols('n')} FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid
       WHERE ${changed}`)};
    -- The lines of orders that became or stopped being sales, or moved in time.
    ${itemDeltas(
      linesOfSales(`
      SELECT -1 AS sign, o.uuid, o.business_uuid, o.created_at, o.status
        FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid WHERE ${itemsChanged}
      UNION ALL
      SELECT 1, n.uuid, n.business_uuid, n.created_at, n.status
        FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid WHERE ${itemsChanged}`),
    )};
  END IF;
  RETURN NULL;
END $fn$`;

/*
 * A deleted order's lines go with it (ON DELETE CASCADE) before any
 * statement-level trigger of the DELETE runs, so a sale's lines are taken
 * out here, per deleted order, while they are still there. Orders are
 * rarely deleted.
 */
export const ORDER_DELETED_TRIGGER = `
CREATE FUNCTION report_order_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF OLD.status IN (${SALE}) THEN
    ${itemDeltas(`
      SELECT -1 AS sign, OLD.business_uuid, OLD.created_at, ${lineCols('l')}
        FROM order_lines l WHERE l.order_uuid = OLD.uuid`)};
  END IF;
  RETURN OLD;
END $fn$`;

/**
 * Lines inserted, changed or deleted: for each (order, item) touched whose
 * order is a sale, minus its lines before the statement (those now there
 * and not new, plus the old ones) and plus its lines now. Lines of orders
 * that are gone (a cascade) were taken out by report_order_deleted.
 *
 * A pair whose lines now are all new in this statement (every pair of a
 * bulk insert of new orders' lines) had none before, so only pairs with
 * more lines now than new ones are compared with the statement's new rows.
 * The transition table has no index: compared line by line, a bulk insert
 * planned on the statistics of an empty table (one row expected) would
 * scan it once per line.
 */
export function linesBody(oldRows: string, newRows: string): string {
  return itemDeltas(`
    WITH touched AS (
      SELECT x.order_uuid, x.item_uuid, count(*) FILTER (WHERE x.is_new) AS new_lines
        FROM (SELECT order_uuid, item_uuid, false AS is_new FROM ${oldRows} AS a
              UNION ALL SELECT order_uuid, item_uuid, true FROM ${newRows} AS b) AS x
       GROUP BY x.order_uuid, x.item_uuid
    ), sales AS (
      SELECT t.item_uuid, t.new_lines, o.uuid, o.business_uuid, o.created_at
        FROM touched t JOIN orders o ON o.uuid = t.order_uuid
       WHERE o.status IN (${SALE})
    ), now_lines AS MATERIALIZED (
      SELECT s.business_uuid, s.created_at, s.new_lines,
             count(*) OVER (PARTITION BY l.order_uuid, l.item_uuid) AS lines_now, ${lineCols('l')}
        FROM sales s JOIN order_lines l ON l.order_uuid = s.uuid AND l.item_uuid = s.item_uuid
    )
    SELECT -1 AS sign, l.business_uuid, l.created_at, ${lineCols('l')}
      FROM now_lines l
     WHERE l.lines_now > l.new_lines
       AND NOT EXISTS (SELECT 1 FROM ${newRows} AS n WHERE n.uuid = l.uuid)
    UNION ALL
    SELECT -1, s.business_uuid, s.created_at, ${lineCols('l')}
      FROM sales s JOIN ${oldRows} AS l ON l.order_uuid = s.uuid AND l.item_uuid = s.item_uuid
    UNION ALL
    SELECT 1, l.business_uuid, l.created_at, ${lineCols('l')}
      FROM now_lines l`);
}

export const NO_LINES = '(SELECT * FROM order_lines WHERE false)';
export const LINES_TRIGGER = `
CREATE FUNCTION report_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${linesBody(NO_LINES, 'new_rows')};
  ELSIF TG_OP = 'DELETE' THEN
    ${linesBody('old_rows', NO_LINES)};
  ELSE
    ${linesBody('old_rows', 'new_rows')};
  END IF;
  RETURN NULL;
END $fn$`;

export const ROLLUPS = [
  'report_sales_slots',
  'report_sales_days',
  'report_sales_deltas',
  'report_item_days',
  'report_item_deltas',
  'report_option_days',
  'report_option_deltas',
];

export const TRUNCATED_TRIGGER = `
CREATE FUNCTION report_orders_truncated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_TABLE_NAME = 'orders' THEN
    TRUNCATE ${ROLLUPS.join(', ')};
  ELSE
    TRUNCATE report_item_days, report_item_deltas, report_option_days, report_option_deltas;
  END IF;
  RETURN NULL;
END $fn$`;

const add = (table: string, columns: string[]) =>
  columns.map((c) => `"${c}" = ${table}."${c}" + EXCLUDED."${c}"`).join(', ');
const sums = (columns: string[]) => columns.map((c) => `sum(d."${c}")`).join(', ');

/** A sale's lines of item r.item_uuid placed on UTC day r.day of business r.business_uuid. */
const DAY_LINES = `
  FROM orders o JOIN order_lines l ON l.order_uuid = o.uuid
 WHERE o.business_uuid = r.business_uuid AND o.created_at >= r.day::timestamp AT TIME ZONE 'UTC'
   AND o.created_at < (r.day + 1)::timestamp AT TIME ZONE 'UTC' AND o.status IN (${SALE})
   AND l.item_uuid = r.item_uuid AND lower(btrim(COALESCE(l.category, ''))) <> 'delivery'`;

/**
 * A removal cannot lower a maximum: rows that lost contributions are marked
 * stale by the fold and their last placement time read again from that
 * day's orders (one business's day, through orders_business_created_idx).
 */
function refreshSql(business: string): string {
  return `
    UPDATE report_item_days r SET stale = false, last_at = (
      SELECT max(x.created_at) FROM (
        SELECT o.created_at,
               (array_agg(l.title_name ORDER BY l.title_name DESC NULLS FIRST))[1] AS title_name
          ${DAY_LINES}
         GROUP BY o.uuid, o.created_at) AS x
       WHERE x.title_name IS NOT DISTINCT FROM r.title_name)
     WHERE r.stale ${business};
    UPDATE report_option_days r SET stale = false, last_at = (
      SELECT max(o.created_at)
        ${DAY_LINES.replace(
          ' WHERE ',
          ` CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(l.options) = 'array'
                THEN l.options ELSE '[]'::jsonb END) AS opt
         WHERE `,
        )}
         AND (opt->>'group') IS NOT DISTINCT FROM r."group"
         AND (opt->>'option') IS NOT DISTINCT FROM r.option
         AND (opt->>'option_title') IS NOT DISTINCT FROM r.option_title)
     WHERE r.stale ${business};`;
}

/** Moves deltas (all, or one business's: `filter`) into the rollups. */
function foldSql(filter: string): string {
  const business = filter ? 'AND r.business_uuid = p_business' : '';
  return `
    WITH d AS (DELETE FROM report_sales_deltas ${filter} RETURNING *),
    slots AS (
      INSERT INTO report_sales_slots (business_uuid, slot, ${MEASURES.join(', ')})
      SELECT d.business_uuid, d.slot, ${sums(MEASURES)} FROM d
       GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (business_uuid, slot) DO UPDATE SET ${add('report_sales_slots', MEASURES)})
    INSERT INTO report_sales_days (business_uuid, day, payment_processor, fulfilment_type,
                                   ${MEASURES.join(', ')})
    SELECT d.business_uuid, ${UTC_DAY('d.slot')}, d.payment_processor, d.fulfilment_type,
           ${sums(MEASURES)}
      FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (business_uuid, day, payment_processor, fulfilment_type)
      DO UPDATE SET ${add('report_sales_days', MEASURES)};
    WITH d AS (DELETE FROM report_item_deltas ${filter} RETURNING *)
    INSERT INTO report_item_days (business_uuid, day, item_uuid, title_name, quantity, revenue,
                                  orders, last_at, stale)
    SELECT d.business_uuid, d.day, d.item_uuid, d.title_name, ${sums(['quantity', 'revenue', 'orders'])},
           max(d.last_at), bool_or(d.removed)
      FROM d GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (business_uuid, day, item_uuid, title_name) DO UPDATE
      SET ${add('report_item_days', ['quantity', 'revenue', 'orders'])},
          last_at = greatest(report_item_days.last_at, EXCLUDED.last_at),
          stale = report_item_days.stale OR EXCLUDED.stale;
    WITH d AS (DELETE FROM report_option_deltas ${filter} RETURNING *)
    INSERT INTO report_option_days (business_uuid, day, item_uuid, "group", option, option_title,
                                    count, lines, last_at, stale)
    SELECT d.business_uuid, d.day, d.item_uuid, d."group", d.option, d.option_title,
           ${sums(['count', 'lines'])}, max(d.last_at), bool_or(d.removed)
      FROM d GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (business_uuid, day, item_uuid, "group", option, option_title) DO UPDATE
      SET ${add('report_option_days', ['count', 'lines'])},
          last_at = greatest(report_option_days.last_at, EXCLUDED.last_at),
          stale = report_option_days.stale OR EXCLUDED.stale;
    ${refreshSql(business)}`;
}

export const FOLD_FUNCTION = `
CREATE FUNCTION report_rollups_fold(p_business uuid) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_business IS NULL THEN
    ${foldSql('')}
  ELSE
    ${foldSql('WHERE business_uuid = p_business')}
  END IF;
END $fn$`;

/**
 * Rebuilds one business's rollups (or, given NULL, every business's) from
 * its orders and lines: what the triggers and folds must always agree with.
 */
function rebuildSql(filter: string): string {
  const tables = ROLLUPS.map((t) => `DELETE FROM ${t} ${filter};`).join('\n    ');
  const orders = `SELECT 1 AS sign, o.uuid, ${orderCols('o')} FROM orders o ${filter}`;
  return `
    ${tables}
    ${salesDeltas(orders)};
    ${itemDeltas(linesOfSales(orders))};`;
}

export const REBUILD_FUNCTION = `
CREATE FUNCTION report_rollups_rebuild(p_business uuid) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_business IS NULL THEN
    ${rebuildSql('')}
    PERFORM report_rollups_fold(NULL);
  ELSE
    ${rebuildSql('WHERE business_uuid = p_business')}
    PERFORM report_rollups_fold(p_business);
  END IF;
END $fn$`;
