/** A table's name on its QR card: 1–32 letters, digits, spaces, `-` or `_`. */
export const TABLE_NAME = /^[A-Za-z0-9 _-]{1,32}$/;
export const MAX_SHEET_TABLES = 200;

const RANGE = /^(\d+)-(\d+)$/;

export type TableListResult =
  { ok: true; tables: string[] } | { ok: false; status: 400 | 422; message: string };

/**
 * Reads a sheet's `tables`: entries separated by commas, each a table's name
 * or a range `a-b` of whole numbers with `a ≤ b` (two integers joined by `-`
 * are always a range, so `5-2` is refused). Spaces around an entry are
 * dropped. A malformed list is a 400; more than 200 tables a 422.
 */
export function parseTableList(text: string | undefined): TableListResult {
  const entries = (text ?? '').split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '') {
    return { ok: false, status: 400, message: 'tables must name at least one table.' };
  }
  const tables: string[] = [];
  for (const entry of entries) {
    const range = RANGE.exec(entry);
    if (range) {
      const [from, to] = [Number(range[1]), Number(range[2])];
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from > to) {
        return { ok: false, status: 400, message: `The range ${entry} must run from low to high.` };
      }
      if (to - from + 1 + tables.length > MAX_SHEET_TABLES) {
        return tooMany();
      }
      for (let n = from; n <= to; n++) tables.push(String(n));
      continue;
    }
    if (!TABLE_NAME.test(entry)) {
      return {
        ok: false,
        status: 400,
        message: `"${entry.slice(0, 40)}" is not a table: use 1–32 letters, digits, spaces, - or _, or a range such as 1-20.`,
      };
    }
    tables.push(entry);
    if (tables.length > MAX_SHEET_TABLES) return tooMany();
  }
  return { ok: true, tables };
}

function tooMany(): TableListResult {
  return {
    ok: false,
    status: 422,
    message: `A sheet holds at most ${MAX_SHEET_TABLES} tables.`,
  };
}
