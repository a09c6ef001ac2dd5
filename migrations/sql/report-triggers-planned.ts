/*
 * The SQL of the migration ReportTriggersPlannedPerCall1795900500000 (why is
 * said there), kept as it was written.
 */
import {
  itemDeltas,
  itemsChanged,
  linesBody,
  linesOfSales,
  NO_LINES,
  ORDERS_TRIGGER,
  SALE,
} from './order-report-rollups';

/** A statement run through EXECUTE: planned at each call, for the tables as they stand. */
const planned = (sql: string) => `EXECUTE $q$${sql}$q$`;

/** Whether one of the orders of `orderUuids` (a query answering order_uuid) is a sale. */
const anySale = (orderUuids: string) =>
  planned(`SELECT EXISTS (
      SELECT 1 FROM orders o
       WHERE o.uuid IN (${orderUuids}) AND o.status IN (${SALE}))`);

/**
 * Lines inserted, changed or deleted move the item and option reports only
 * when their order is a sale; the lines of a new order waiting for its
 * acceptance (nearly every insert) move nothing, and the statement that
 * works out the deltas is not run.
 */
export const LINES_TRIGGER_PLANNED = `
CREATE OR REPLACE FUNCTION report_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  sales boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${anySale('SELECT order_uuid FROM new_rows')} INTO sales;
    IF sales THEN
      ${planned(linesBody(NO_LINES, 'new_rows'))};
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    ${anySale('SELECT order_uuid FROM old_rows')} INTO sales;
    IF sales THEN
      ${planned(linesBody('old_rows', NO_LINES))};
    END IF;
  ELSE
    ${anySale('SELECT order_uuid FROM old_rows UNION ALL SELECT order_uuid FROM new_rows')} INTO sales;
    IF sales THEN
      ${planned(linesBody('old_rows', 'new_rows'))};
    END IF;
  END IF;
  RETURN NULL;
END $fn$`;

/** Orders whose lines count differently after the update: their sign, and their columns before or after. */
const movedOrders = `
      SELECT -1 AS sign, o.uuid, o.business_uuid, o.created_at, o.status
        FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid WHERE ${itemsChanged}
      UNION ALL
      SELECT 1, n.uuid, n.business_uuid, n.created_at, n.status
        FROM old_rows o JOIN new_rows n ON n.uuid = o.uuid WHERE ${itemsChanged}`;

/** `sql` with `part` replaced by `by`: the part must be there, once. */
function replaced(sql: string, part: string, by: string): string {
  const at = sql.indexOf(part);
  if (at < 0 || sql.indexOf(part, at + 1) >= 0) {
    throw new Error('the part to replace is not in the statement once');
  }
  return sql.slice(0, at) + by + sql.slice(at + part.length);
}

/**
 * The orders trigger as first written, but for its statement that reads the
 * lines of orders that became or stopped being sales, or moved in time: it
 * runs only when there are such orders (an acceptance, a sale's
 * cancellation), which the statement's own rows tell. The sales deltas read
 * only the statement's own rows and stay as they were.
 */
export const ORDERS_TRIGGER_PLANNED = replaced(
  ORDERS_TRIGGER.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'),
  itemDeltas(linesOfSales(movedOrders)),
  `IF EXISTS (SELECT 1 FROM (${movedOrders}) AS m WHERE m.status IN (${SALE})) THEN
      ${planned(itemDeltas(linesOfSales(movedOrders)))};
    END IF`,
);
