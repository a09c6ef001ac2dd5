/**
 * CSV as RFC 4180 writes it: cells separated by commas, records ended by
 * CRLF, a cell holding a comma, a double quote, CR or LF enclosed in double
 * quotes with its quotes doubled.
 *
 * A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * read as a formula by spreadsheet programs (formula injection: a guest's
 * email or phone number could run one on the owner's machine), so it is
 * prefixed with `'`, which makes them show it as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

// R63: csv export.
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(cells: ReadonlyArray<string | number | null | undefined>): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(cells[i]);
  }
  return `${line}\r\n`;
}

/** The first `count` cells of `cells` as one record with its CRLF. */
export function csvRow(
  cells: ReadonlyArray<string | number | null | undefined>,
  count: number,
): string {
  let line = count > 0 ? csvCell(cells[0]) : '';
  for (let i = 1; i < count; i++) line += `,${csvCell(cells[i])}`;
  return `${line}\r\n`;
}
