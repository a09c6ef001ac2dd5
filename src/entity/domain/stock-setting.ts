import { ErrorDetail } from '../../http/api-error';
import { Described, FieldRule, isPlainObject, nullable, rule } from '../extra-data';

/** How an item's portions are counted: afresh each local day, or once until changed. */
export type StockMode = 'daily' | 'count';

/** An item's `extra_data.stock`, as stored after its rule accepted it. */
export interface StockSetting {
  mode: StockMode;
  quantity: number;
  /** `remaining` at or below this is low; 0 when not sent. */
  lowAt: number;
}

export const STOCK_MAX_QUANTITY = 100_000;

const KEYS = new Set(['mode', 'quantity', 'low_at']);

function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : undefined;
}

// R95: the stock setting of an item.
/**
 * `{mode, quantity, low_at}`: `mode` `daily` or `count`, `quantity` a whole
 * number 0–100000, `low_at` 0–`quantity` (0 when left out). Whole numbers may
 * come as form strings and are stored as numbers; null or absent: no stock.
 */
export function normaliseStock(
  value: unknown,
  field: string,
  faults: ErrorDetail[],
): Record<string, unknown> | null | undefined {
  if (value === null || value === undefined) return value as null | undefined;
  if (!isPlainObject(value)) {
    faults.push({ field, message: `${field} must be an object with mode and quantity.` });
    return undefined;
  }
  const before = faults.length;
  const extra = Object.keys(value).filter((key) => !KEYS.has(key));
  if (extra.length) {
    faults.push({ field: `${field}.${extra[0]}`, message: `${field}.${extra[0]} is not known.` });
  }
  if (value.mode !== 'daily' && value.mode !== 'count') {
    faults.push({ field: `${field}.mode`, message: `${field}.mode must be daily or count.` });
  }
  const quantity = wholeNumber(value.quantity);
  if (quantity === undefined || quantity < 0 || quantity > STOCK_MAX_QUANTITY) {
    faults.push({
      field: `${field}.quantity`,
      message: `${field}.quantity must be a whole number from 0 to ${STOCK_MAX_QUANTITY}.`,
    });
  }
  const lowAt = value.low_at === undefined || value.low_at === null ? 0 : wholeNumber(value.low_at);
  if (lowAt === undefined || lowAt < 0 || (quantity !== undefined && lowAt > quantity)) {
    faults.push({
      field: `${field}.low_at`,
      message: `${field}.low_at must be a whole number from 0 to the quantity.`,
    });
  }
  if (faults.length > before) return undefined;
  return { mode: value.mode, quantity, low_at: lowAt };
}

/** The rule of `extra_data.stock` of an item. */
export function stockSetting(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => normaliseStock(value, field, faults),
    nullable({
      type: 'object',
      required: ['mode', 'quantity'],
      additionalProperties: false,
      properties: {
        mode: {
          type: 'string',
          enum: ['daily', 'count'],
          description:
            '`daily`: `quantity` portions each local day of the business, from midnight in its ' +
            'time zone; `count`: `quantity` portions until changed.',
        },
        quantity: { type: 'integer', minimum: 0, maximum: STOCK_MAX_QUANTITY },
        low_at: {
          type: 'integer',
          minimum: 0,
          description: 'At most `quantity`; `remaining` at or below it is low. Default 0.',
        },
      },
    }),
    described,
  );
}

/** The stock setting of an item's stored `extra_data`, or null when it has none (unlimited). */
export function readStockSetting(extraData: Record<string, unknown> | null): StockSetting | null {
  const value = extraData?.stock;
  if (!isPlainObject(value)) return null;
  const faults: ErrorDetail[] = [];
  const stock = normaliseStock(value, 'stock', faults);
  if (!stock) return null;
  return {
    mode: stock.mode as StockMode,
    quantity: stock.quantity as number,
    lowAt: stock.low_at as number,
  };
}
