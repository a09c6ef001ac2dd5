import { ApiError } from '../../http/api-error';
import { isUuid } from '../../common/uuid';
import { toUnits } from './domain/bill-split';
import { SplitTabDto } from './tab.dto';
import { TabShareLine } from './tab.entity';

const MAX_PARTS = 50;

/** A non-negative amount of money with at most two decimals, as the tab's bodies send it. */
export const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

/** A split of a tab's bill in the domain's terms (amounts in units). */
export type SplitRequest =
  | { by: 'equal'; parts: number }
  | { by: 'amount'; amounts: number[] }
  | { by: 'items'; shares: Array<{ lines: TabShareLine[] }> };

/** The split body read into the domain's terms; a malformed body is 400 naming its field. */
export function readSplit(dto: SplitTabDto): SplitRequest {
  const fault = (field: string, message: string) =>
    ApiError.validation([{ field, message }], `${field} ${message}`);
  if (dto.by === 'equal') {
    const parts = dto.parts;
    if (typeof parts !== 'number' || !Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) {
      throw fault('parts', `must be a whole number from 1 to ${MAX_PARTS}`);
    }
    return { by: 'equal', parts };
  }
  if (dto.by === 'amount') {
    const amounts = dto.amounts;
    if (!Array.isArray(amounts) || amounts.length === 0 || amounts.length > MAX_PARTS) {
      throw fault('amounts', `must list 1 to ${MAX_PARTS} amounts`);
    }
    amounts.forEach((amount, index) => {
      if (typeof amount !== 'string' || !AMOUNT.test(amount)) {
        throw fault(`amounts[${index}]`, 'must be a non-negative decimal string such as "12.00"');
      }
    });
    return { by: 'amount', amounts: (amounts as string[]).map(toUnits) };
  }
  const shares = dto.shares;
  if (!Array.isArray(shares) || shares.length === 0 || shares.length > MAX_PARTS) {
    throw fault('shares', `must list 1 to ${MAX_PARTS} shares`);
  }
  return {
    by: 'items',
    shares: shares.map((share: unknown, index) => {
      const lines = (share as { lines?: unknown })?.lines;
      if (!Array.isArray(lines) || lines.length === 0 || lines.length > 1000) {
        throw fault(`shares[${index}].lines`, 'must list the lines the share pays');
      }
      return {
        lines: lines.map((line: unknown, at) => {
          const { order_uuid, line_uuid, quantity } = (line ?? {}) as Record<string, unknown>;
          if (
            !isUuid(order_uuid) ||
            !isUuid(line_uuid) ||
            typeof quantity !== 'number' ||
            !Number.isInteger(quantity) ||
            quantity < 1
          ) {
            throw fault(
              `shares[${index}].lines[${at}]`,
              'must be {order_uuid, line_uuid, quantity} with a whole quantity of at least 1',
            );
          }
          return {
            order_uuid: order_uuid.toLowerCase(),
            line_uuid: line_uuid.toLowerCase(),
            quantity,
          };
        }),
      };
    }),
  };
}
