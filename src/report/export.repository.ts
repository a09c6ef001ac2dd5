import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OPEN_DATABASE } from '../database/database.module';
import { OpenDatabase } from '../database/data-source';
import { ReportRange } from './report-range';
import { IN_PERIOD, LOCAL_ISO } from './report-sql';

/** Orders read from the database at a time: a few hundred kilobytes of rows. */
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
] as const;

const UUID = ORDER_COLUMNS.indexOf('uuid');
const KEY_AT = ORDER_COLUMNS.length;

/** A line: order_uuid, item_uuid, title_name, options (JSON), quantity, unit_price_amount, line_total. */
export type ExportLineRow = [string, string, string | null, unknown, number, string, string];

export interface ExportBatch {
  orders: ExportOrderRow[];
  /** The lines of these orders by order uuid, in cart order; only when asked for. */
  lines?: Map<string, ExportLineRow[]>;
}

/** The uuid of an order row. */
export function orderUuidOf(row: ExportOrderRow): string {
  return row[UUID]!;
}

const ORDER_SELECT = `
  SELECT o.order_reference, o.uuid::text, to_char(o.created_at, ${LOCAL_ISO}), o.status,
         o.payment_processor, o.payment_status,
         (SELECT string_agg(DISTINCT p.channel, ';' ORDER BY p.channel) FROM payments p
           WHERE p.order_uuid = o.uuid AND p.status = 'paid'),
         o.fulfilment_type,
         to_char(o.requested_time, ${LOCAL_ISO}), o.customer_email_address,
         o.customer_phone_number, o.items_subtotal::text, o.delivery_fee::text, o.discount::text,
         o.discount_code, o.service_charge::text, o.tax::text, o.tip::text, o.amount::text,
         o.amount_refunded::text, o.created_at::text
    FROM orders o`;

/** The whole period in (created_at, uuid) order: the order of orders_business_created_idx. */
export const CURSOR_SQL = `${ORDER_SELECT} WHERE ${IN_PERIOD} ORDER BY o.created_at, o.uuid`;

/** The next batch after ($4, $5) in the same order, for the embedded database. */
const KEYSET_SQL = `${ORDER_SELECT}
   WHERE ${IN_PERIOD} AND (o.created_at, o.uuid) > ($4::timestamptz, $5::uuid)
   ORDER BY o.created_at, o.uuid
   LIMIT ${EXPORT_BATCH}`;

const FIRST_KEYSET_SQL = `${ORDER_SELECT} WHERE ${IN_PERIOD} ORDER BY o.created_at, o.uuid LIMIT ${EXPORT_BATCH}`;

const LINES_SQL = `
  SELECT l.order_uuid::text, l.item_uuid::text, l.title_name, l.options, l.quantity,
         l.unit_price_amount::text, l.line_total::text
    FROM order_lines l
   WHERE l.order_uuid = ANY($1::uuid[])
   ORDER BY l.order_uuid, l.position`;

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
      await runner.query(`DECLARE orders_export NO SCROLL CURSOR FOR ${CURSOR_SQL}`, [
        businessUuid,
        range.from,
        range.to,
      ]);
      for (;;) {
        const orders = await arrays<ExportOrderRow>(
          client,
          `FETCH ${EXPORT_BATCH} FROM orders_export`,
        );
        if (orders.length === 0) break;
        yield { orders, lines: withLines ? await linesOf(client, orders) : undefined };
        if (orders.length < EXPORT_BATCH) break;
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
      const batch = await this.keysetBatch(businessUuid, range, timeZone, withLines, last);
      if (batch.orders.length === 0) return;
      yield batch;
      if (batch.orders.length < EXPORT_BATCH) return;
      last = batch.orders[batch.orders.length - 1];
    }
  }

  /** One batch after `after` (or the first), in a short read-only transaction of its own. */
  private async keysetBatch(
    businessUuid: string,
    range: ReportRange,
    timeZone: string,
    withLines: boolean,
    after: ExportOrderRow | undefined,
  ): Promise<ExportBatch> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as ArrayClient;
    let open = false;
    try {
      await runner.query('BEGIN TRANSACTION READ ONLY');
      open = true;
      await runner.query(`SELECT set_config('TimeZone', $1, true)`, [timeZone]);
      const orders = after
        ? await arrays<ExportOrderRow>(client, KEYSET_SQL, [
            businessUuid,
            range.from,
            range.to,
            after[KEY_AT],
            after[UUID],
          ])
        : await arrays<ExportOrderRow>(client, FIRST_KEYSET_SQL, [
            businessUuid,
            range.from,
            range.to,
          ]);
      const lines = withLines ? await linesOf(client, orders) : undefined;
      await runner.query('COMMIT');
      open = false;
      return { orders, lines };
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

async function linesOf(
  client: ArrayClient,
  orders: ExportOrderRow[],
): Promise<Map<string, ExportLineRow[]>> {
  const rows = await arrays<ExportLineRow>(client, LINES_SQL, [orders.map(orderUuidOf)]);
  const byOrder = new Map<string, ExportLineRow[]>();
  for (const row of rows) {
    let lines = byOrder.get(row[0]);
    if (!lines) byOrder.set(row[0], (lines = []));
    lines.push(row);
  }
  return byOrder;
}
