import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OPEN_DATABASE } from '../database/database.module';
import { OpenDatabase } from '../database/data-source';
import { ReportRange } from './report-range';
import { IN_PERIOD, LOCAL_ISO } from './report-sql';

/** Orders read from the database at a time: a few hundred kilobytes of rows. */
export const EXPORT_BATCH = 2000;

/** One order as the export writes it (local times with their offset, money as text). */
export interface ExportOrderRow {
  uuid: string;
  /** created_at as PostgreSQL writes it: the exact key of the next batch. */
  key_at: string;
  order_reference: string;
  created_at: string;
  status: string;
  payment_processor: string;
  payment_status: string;
  fulfilment_type: string;
  requested_time: string | null;
  customer_email_address: string;
  customer_phone_number: string | null;
  items_subtotal: string;
  delivery_fee: string;
  discount: string;
  discount_code: string | null;
  service_charge: string;
  tax: string;
  tip: string;
  total: string;
  refunded: string;
}

export interface ExportLineRow {
  order_uuid: string;
  item_uuid: string;
  title_name: string | null;
  options: unknown;
  quantity: number;
  unit_price_amount: string;
  line_total: string;
}

export interface ExportBatch {
  orders: ExportOrderRow[];
  /** The lines of these orders by order uuid, in cart order; only when asked for. */
  lines?: Map<string, ExportLineRow[]>;
}

const ORDER_SELECT = `
  SELECT o.uuid::text AS uuid, o.created_at::text AS key_at, o.order_reference,
         to_char(o.created_at, ${LOCAL_ISO}) AS created_at, o.status, o.payment_processor,
         o.payment_status, o.fulfilment_type, to_char(o.requested_time, ${LOCAL_ISO}) AS requested_time,
         o.customer_email_address, o.customer_phone_number, o.items_subtotal, o.delivery_fee,
         o.discount, o.discount_code, o.service_charge, o.tax, o.tip, o.amount AS total,
         o.amount_refunded AS refunded
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
  SELECT l.order_uuid::text AS order_uuid, l.item_uuid::text AS item_uuid, l.title_name, l.options,
         l.quantity, l.unit_price_amount, l.line_total
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
    await runner.connect();
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
        const orders: ExportOrderRow[] = await runner.query(
          `FETCH ${EXPORT_BATCH} FROM orders_export`,
        );
        if (orders.length === 0) break;
        yield {
          orders,
          lines: withLines ? await linesOf(runner.manager, orders) : undefined,
        };
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
      const after = last;
      const batch = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT set_config('TimeZone', $1, true)`, [timeZone]);
        const orders: ExportOrderRow[] = after
          ? await manager.query(KEYSET_SQL, [
              businessUuid,
              range.from,
              range.to,
              after.key_at,
              after.uuid,
            ])
          : await manager.query(FIRST_KEYSET_SQL, [businessUuid, range.from, range.to]);
        return {
          orders,
          lines: withLines ? await linesOf(manager, orders) : undefined,
        };
      });
      if (batch.orders.length === 0) return;
      yield batch;
      if (batch.orders.length < EXPORT_BATCH) return;
      last = batch.orders[batch.orders.length - 1];
    }
  }
}

async function linesOf(
  manager: EntityManager,
  orders: ExportOrderRow[],
): Promise<Map<string, ExportLineRow[]>> {
  const rows: ExportLineRow[] = await manager.query(LINES_SQL, [orders.map((o) => o.uuid)]);
  const byOrder = new Map<string, ExportLineRow[]>();
  for (const row of rows) {
    let lines = byOrder.get(row.order_uuid);
    if (!lines) byOrder.set(row.order_uuid, (lines = []));
    lines.push(row);
  }
  return byOrder;
}
