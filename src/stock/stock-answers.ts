import { EntityRecord, StockSetting } from '../entity';
import { ApiError } from '../http/api-error';
import { StockItemResponseDto, StockLedgerEntryDto } from './dto/stock.dto';
import { StockLedgerEntity } from './stock.entity';
import { COUNT_PERIOD } from './stock-periods';
import { PeriodCount } from './stock.repository';

/** What remains of a period: the setting's quantity plus adjustments less what orders hold, never below 0. */
export function remainingOf(quantity: number, count: PeriodCount): number {
  return Math.max(0, quantity + count.adjusted - count.taken);
}

/** Whether `text` is a real calendar day as YYYY-MM-DD. */
export function isDay(text: string): boolean {
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** 422 naming the order's line whose item has fewer portions left than it asks. */
export function shortOf(position: number, remaining: number): ApiError {
  return ApiError.unprocessable(
    `Line ${position + 1}: only ${remaining} portion${remaining === 1 ? '' : 's'} left.`,
    [
      {
        field: `cart_items.${position}.quantity`,
        message: `only ${remaining} left of this item`,
        remaining,
      },
    ],
  );
}

// R99: an adjustment never leaves less than what orders hold.
export function belowHeld(setting: StockSetting, count: PeriodCount): ApiError {
  const remaining = remainingOf(setting.quantity, count);
  return ApiError.unprocessable(
    `Orders hold ${count.taken} portions; at most ${remaining} can be taken away.`,
    [
      {
        field: 'delta',
        message: `at most ${remaining} can be taken away`,
        taken: count.taken,
        remaining,
      },
    ],
  );
}

/** An item's count of a period as the routes answer it. */
export function viewOf(
  item: EntityRecord,
  setting: StockSetting,
  period: string,
  count: PeriodCount = { taken: 0, adjusted: 0 },
): StockItemResponseDto {
  const remaining = remainingOf(setting.quantity, count);
  return {
    item_uuid: item.uuid,
    title_name: item.titleName,
    mode: setting.mode,
    date: period === COUNT_PERIOD ? null : period,
    quantity: Math.max(0, setting.quantity + count.adjusted),
    taken: count.taken,
    remaining,
    low: remaining <= setting.lowAt,
  };
}

export function toLedgerEntry(entry: StockLedgerEntity): StockLedgerEntryDto {
  return {
    at: new Date(entry.at).toISOString(),
    delta: Number(entry.delta),
    reason: entry.reason,
    note: entry.note,
    order_uuid: entry.orderUuid,
    by: entry.byUuid,
    actor: entry.actor,
    date: entry.period === COUNT_PERIOD ? null : entry.period,
  };
}
