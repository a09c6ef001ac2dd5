import { Injectable, Logger } from '@nestjs/common';
import { Response } from 'express';
import { AuthUser } from '../auth/auth.decorator';
import { csvRecord, csvRow } from './csv';
import { ExportOrdersQueryDto } from './dto/report-query.dto';
import {
  ExportBatch,
  ExportLineRow,
  ExportRepository,
  LINE_AT,
  ORDER_COLUMNS,
} from './export.repository';

export { ORDER_COLUMNS } from './export.repository';
import { ReportService } from './report.service';

export const LINE_COLUMNS = [
  'item_uuid',
  'title_name',
  'options',
  'quantity',
  'unit_price_amount',
  'line_total',
] as const;

/** The chosen options of a line as one cell: `Size: Large; Extras: Cheese`. */
export function optionsText(options: unknown): string {
  if (!Array.isArray(options)) return '';
  return options
    .map((option: Record<string, unknown>) => {
      const group = option.group_title ?? option.group;
      const choice = option.option_title ?? option.option;
      return `${String(group ?? '')}: ${String(choice ?? '')}`;
    })
    .join('; ');
}

/** The line's cells of a line row: blank for an order without lines. */
function lineCells(row: ExportLineRow): Array<string | number | null> {
  const [itemUuid, titleName, options, quantity, unitPrice, lineTotal] = row.slice(LINE_AT);
  return [
    itemUuid as string | null,
    titleName as string | null,
    itemUuid === null ? null : optionsText(options),
    quantity as number | null,
    unitPrice as string | null,
    lineTotal as string | null,
  ];
}

const ORDER_CELLS = ORDER_COLUMNS.length;

function batchText(batch: ExportBatch): string {
  let text = '';
  if ('orders' in batch) {
    for (const order of batch.orders) text += csvRow(order, ORDER_CELLS);
    return text;
  }
  for (const row of batch.lineRows) {
    text += csvRecord([...(row.slice(0, ORDER_CELLS) as Array<string | null>), ...lineCells(row)]);
  }
  return text;
}

/** Resolves when the response can take more, or has closed. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Every order of a period as CSV (RFC 4180, UTF-8, a header row), written
 * as it is read: a batch is read only once the previous one has been taken
 * by the client (backpressure), so memory does not grow with the number of
 * orders. A client that goes away stops the reading.
 */
@Injectable()
export class ExportService {
  private readonly logger = new Logger('OrderExport');

  constructor(
    private readonly reports: ReportService,
    private readonly exports: ExportRepository,
  ) {}

  async exportOrders(
    user: AuthUser,
    businessUuid: string,
    query: ExportOrdersQueryDto,
    res: Response,
  ): Promise<void> {
    const { timeZone, range } = await this.reports.open(user, businessUuid, query.from, query.to);
    const withLines = query.lines === true;
    let gone = false;
    res.once('close', () => (gone = true));
    const batches = this.exports.batches(businessUuid, range, timeZone, withLines);
    // The first batch is read before any byte is sent, so a failure there is still an error answer.
    let next = await batches.next();
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="orders-${range.from}-${range.to}.csv"`,
    );
    res.setHeader('Cache-Control', 'no-store');
    try {
      res.write(csvRecord(withLines ? [...ORDER_COLUMNS, ...LINE_COLUMNS] : [...ORDER_COLUMNS]));
      while (!next.done && !gone) {
        const text = batchText(next.value);
        // The next batch is read while this one is written out: the database
        // and the client work at the same time, and memory holds two batches.
        const reading = batches.next();
        // Awaited below, or left behind when the client has gone.
        reading.catch(() => undefined);
        if (!res.write(text) && !gone) await drained(res);
        if (gone) break;
        next = await reading;
      }
      if (!gone) res.end();
    } catch (error) {
      this.logger.error(`The export of ${businessUuid} stopped: ${String(error)}`);
      res.destroy(error instanceof Error ? error : undefined);
    } finally {
      await batches.return(undefined);
    }
  }
}
