import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OPEN_DATABASE } from '../database/database.module';
import { OpenDatabase } from '../database/data-source';
import { ReportRange } from './report-range';
import { IN_PERIOD, LOCAL_ISO } from './report-sql';

/**
 * Rows read from the database at a time, whatever they are: orders, or with
 * lines one row per line (an order of 100 lines is 100 rows), so that a
 * batch is a few hundred kilobytes however many lines the orders have.
 */
// R74: flat exports.
export const EXPORT_BATCH = 2000;

/**
 * One order as the export writes it, as an array in the order of
 * ORDER_COLUMNS (local times with their offset, money as text), then the
 * key of the next batch (KEY_AT: created_at as PostgreSQL writes it). Rows
 * are read as arrays, not objects: a year's export reads a few million
 * cells, and an object per row with twenty named fields was most of the
 * time and garbage of the export.
 */
export type ExportOrderRow = Array<string | null>;

/** The columns of one order in the CSV, in the order of an ExportOrderRow. */
export const ORDER_COLUMNS = [
  'order_reference',
  'uuid',
  'created_at',
  'status',
  'payment_processor',
  'payment_status',
  'payment_channels',
  'fulfilment_type',
  'requested_time',
  'customer_email_address',
  'customer_phone_number',
  'items_subtotal',
  'delivery_fee',
  'discount',
  'discount_code',
  'service_charge',
  'tax',
  'tip',
  'total',
  'refunded',
  'channel',
] as const;

const UUID = ORDER_COLUMNS.indexOf('uuid');
const KEY_AT = ORDER_COLUMNS.length;

/**
 * One line with its order, as the export with lines writes it: the order's
 * cells (as an ExportOrderRow, KEY_AT included), then the line's item_uuid,
 * title_name, options (JSON), quantity, unit_price_amount and line_total
 * (all null for an order without lines), then its position in the cart
 * (-1 without lines), the rest of the key of the next batch.
 */
export type ExportLineRow = Array<unknown>;

/** The line cells' place in an ExportLineRow, and the position's. */
export const LINE_AT = ORDER_COLUMNS.length + 1;
const POSITION_AT = LINE_AT + 6;

/** A batch: orders, or (with lines) line rows; at most EXPORT_BATCH rows either way. */
export type ExportBatch = { orders: ExportOrderRow[] } | { lineRows: ExportLineRow[] };

const ORDER_SELECT = `
  SELECT o.order_reference, o.uuid::text, to_char(o.created_at, ${LOCAL_ISO}), o.status,
         o.payment_processor, o.payment_status,
         (SELECT string_agg(DISTINCT p.channel, ';' ORDER BY p.channel) FROM payments p
           WHERE p.order_uuid = o.uuid AND p.status = 'paid'),
         o.fulfilment_type,
         to_char(o.requested_time, ${LOCAL_ISO}), o.customer_email_address,
         o.customer_phone_number, o.items_subtotal::text, o.delivery_fee::text, o.discount::text,
         o.discount_code, o.service_charge::text, o.tax::text, o.tip::text, o.amount::text,
         o.amount_refunded::text, o.channel, o.created_at::text
    FROM orders o`;

/** The whole period in (created_at, uuid) order: the order of orders_business_created_idx. */
export const CURSOR_SQL = `${ORDER_SELECT} WHERE ${IN_PERIOD} ORDER BY o.created_at, o.uuid`;

/** The next batch after ($4, $5) in the same order, for the embedded database. */
const KEYSET_SQL = `${ORDER_SELECT}
   WHERE ${IN_PERIOD} AND (o.created_at, o.uuid) > ($4::timestamptz, $5::uuid)
   ORDER BY o.created_at, o.uuid
   LIMIT ${EXPORT_BATCH}`;

const FIRST_KEYSET_SQL = `${ORDER_SELECT} WHERE ${IN_PERIOD} ORDER BY o.created_at, o.uuid LIMIT ${EXPORT_BATCH}`;

/** Every line of the period with its order (an order without lines once), in cart order. */
const LINE_ROW_SELECT = `${ORDER_SELECT.replace(
  'FROM orders o',
  `, l.item_uuid::text, l.title_name, l.options, l.quantity, l.unit_price_amount::text,
         l.line_total::text, coalesce(l.position, -1)
    FROM orders o LEFT JOIN order_lines l ON l.order_uuid = o.uuid`,
)}`;

const LINE_ORDER = 'ORDER BY o.created_at, o.uuid, l.position';

export const LINES_CURSOR_SQL = `${LINE_ROW_SELECT} WHERE ${IN_PERIOD} ${LINE_ORDER}`;

/** The next line rows after ($4, $5, $6) in the same order, for the embedded database. */
const LINES_KEYSET_SQL = `${LINE_ROW_SELECT}
   WHERE ${IN_PERIOD} AND (o.created_at, o.uuid) >= ($4::timestamptz, $5::uuid)
     AND (o.created_at, o.uuid, coalesce(l.position, -1)) > ($4::timestamptz, $5::uuid, $6::int)
   ${LINE_ORDER}
   LIMIT ${EXPORT_BATCH}`;

const FIRST_LINES_KEYSET_SQL = `${LINE_ROW_SELECT} WHERE ${IN_PERIOD} ${LINE_ORDER} LIMIT ${EXPORT_BATCH}`;

/**
 * The export's reads. On a PostgreSQL server the period is read through a
 * cursor on a connection of its own (DECLARE … FETCH in one read-only
 * transaction: one consistent snapshot, one plan, and only a batch in
 * memory at a time). The embedded database has a single connection, which
 * a cursor would hold for the whole export; there the period is read in
 * keyset batches ordered by (created_at, uuid), each its own short
 * transaction, so other requests go on between batches.
 */
@Injectable()
export class ExportRepository {
  private readonly embedded: boolean;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(OPEN_DATABASE) db: OpenDatabase,
  ) {
    this.embedded = db.embedded !== undefined;
  }

  /**
   * The period's orders, batch by batch. Stop iterating (return/break) to
   * give the connection back early; the caller pulls the next batch only
   * once the previous one is written, so memory holds one batch.
   */
  batches(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
    withLines: boolean,
  ): AsyncGenerator<ExportBatch> {
    return this.embedded
      ? this.keysetBatches(businessUuid, range, timeZone, withLines)
      : this.cursorBatches(businessUuid, range, timeZone, withLines);
  }

  private async *cursorBatches(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
    withLines: boolean,
  ): AsyncGenerator<ExportBatch> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as ArrayClient;
    let open = false;
    try {
      await runner.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      open = true;
      await runner.query(`SELECT set_config('TimeZone', $1, true)`, [timeZone]);
      const sql = withLines ? LINES_CURSOR_SQL : CURSOR_SQL;
      await runner.query(`DECLARE orders_export NO SCROLL CURSOR FOR ${sql}`, [
        businessUuid,
        range.from,
        range.to,
      ]);
      for (;;) {
        const rows = await arrays<ExportOrderRow>(
          client,
          `FETCH ${EXPORT_BATCH} FROM orders_export`,
        );
        if (rows.length === 0) break;
        yield withLines ? { lineRows: rows } : { orders: rows };
        if (rows.length < EXPORT_BATCH) break;
      }
      await runner.query('COMMIT');
      open = false;
    } finally {
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }

  private async *keysetBatches(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
    withLines: boolean,
  ): AsyncGenerator<ExportBatch> {
    let last: ExportOrderRow | undefined;
    for (;;) {
      const rows = await this.keysetBatch(businessUuid, range, timeZone, withLines, last);
      if (rows.length === 0) return;
      yield withLines ? { lineRows: rows } : { orders: rows };
      if (rows.length < EXPORT_BATCH) return;
      last = rows[rows.length - 1];
    }
  }

  /** One batch of rows after `after` (or the first), in a short read-only transaction of its own. */
  private async keysetBatch(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
    withLines: boolean,
    after: ExportOrderRow | undefined,
  ): Promise<ExportOrderRow[]> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as ArrayClient;
    let open = false;
    try {
      await runner.query('BEGIN TRANSACTION READ ONLY');
      open = true;
      await runner.query(`SELECT set_config('TimeZone', $1, true)`, [timeZone]);
      const period = [businessUuid, range.from, range.to];
      let rows: ExportOrderRow[];
      if (!after) {
        rows = await arrays(client, withLines ? FIRST_LINES_KEYSET_SQL : FIRST_KEYSET_SQL, period);
      } else if (withLines) {
        const key = [after[KEY_AT], after[UUID], after[POSITION_AT]];
        rows = await arrays(client, LINES_KEYSET_SQL, [...period, ...key]);
      } else {
        rows = await arrays(client, KEYSET_SQL, [...period, after[KEY_AT], after[UUID]]);
      }
      await runner.query('COMMIT');
      open = false;
      return rows;
    } finally {
      if (open) await runner.query('ROLLBACK').catch(() => undefined);
      await runner.release();
    }
  }
}

/** The driver's connection under a query runner (node-postgres), asked for rows as arrays. */
interface ArrayClient {
  query(config: {
    text: string;
    values?: unknown[];
    rowMode: 'array';
  }): Promise<{ rows: unknown[] }>;
}

async function arrays<T>(client: ArrayClient, text: string, values?: unknown[]): Promise<T[]> {
  return (await client.query({ text, values, rowMode: 'array' })).rows as T[];
}
