import { parse } from 'csv-parse/sync';
import { EntityBodyDto } from './dto/entity-body.dto';
import { isPlainObject } from './extra-data';
import { canonicalLocale } from './domain/menu-labels';
import { ImportItem, ParsedImport, sameDocument, withExternalId } from './menu-import';
import {
  CSV_COLUMNS,
  CsvColumn,
  ESCAPED_FORMULA,
  groupsOf,
  ImportError,
  ITEM_EXTRA_COLUMNS,
  LIST_COLUMNS,
  optionsOf,
} from './menu-transfer';

/* The CSV import (R121): one row per item and per option, the export's columns. */

interface CsvRow {
  line: number;
  cells: Map<string, string>;
}

/** A cell as it was before the export made it safe against formula injection. */
function unescapeCell(cell: string): string {
  return ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell;
}

/** Whether a stored value means "nothing", as an empty cell does. */
function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (isPlainObject(value) && Object.keys(value).length === 0)
  );
}

/**
 * Sets `key` of `target` from a cell: an empty cell clears it (leaving a
 * stored empty value as it is), anything else is the value.
 */
function setFromCell(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) {
    if (!isEmptyValue(target[key])) delete target[key];
  } else {
    target[key] = value;
  }
}

function listValue(cell: string): string[] | undefined {
  if (cell.trim() === '') return undefined;
  return cell
    .split(';')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}

/** Sets one translated field from a cell; a change that empties a locale or all of them drops it. */
function setTranslation(
  target: Record<string, unknown>,
  locale: string,
  field: string,
  cell: string,
): void {
  const before = isPlainObject(target.translations) ? target.translations : undefined;
  const entryBefore = before && isPlainObject(before[locale]) ? before[locale] : undefined;
  const entry: Record<string, unknown> = { ...(entryBefore ?? {}) };
  setFromCell(entry, field, cell === '' ? undefined : cell);
  if (sameDocument(entry, entryBefore ?? {})) return;
  const translations: Record<string, unknown> = { ...(before ?? {}) };
  if (Object.keys(entry).length > 0) translations[locale] = entry;
  else delete translations[locale];
  if (Object.keys(translations).length > 0) target.translations = translations;
  else delete target.translations;
}

/** A text column's value: an empty cell is null, unless the stored value is already empty. */
function textFromCell(cell: string, stored: string | null | undefined): string | null {
  if (cell !== '') return cell;
  return stored === '' ? '' : null;
}

const OPTION_FIELD_COLUMNS: Record<string, string> = {
  title: 'title_name',
  price_delta: 'unit_price_amount',
  key: 'external_id',
};

/**
 * The CSV import (R121): a header row naming the columns (the fixed ones in
 * any order, `external_id`, `kind` and `title_name` required, and
 * `title_name.<locale>` / `description.<locale>`), then one row per item or
 * option. A column left out of the file leaves that field of matched items
 * as it is; an empty cell clears it. Parsed by csv-parse (RFC 4180).
 */
export function parseCsvImport(text: string): ParsedImport {
  const errors: ImportError[] = [];
  let records: Array<{ record: string[] }>;
  try {
    const parsed: unknown = parse(text, { bom: true, info: true, relax_column_count: false });
    records = parsed as typeof records;
  } catch (error) {
    const where = (error as { lines?: number }).lines ?? null;
    const message = error instanceof Error ? error.message : String(error);
    return {
      items: [],
      errors: [{ row: where, column: null, message: `Not valid CSV: ${message}` }],
    };
  }
  if (records.length === 0) {
    return {
      items: [],
      errors: [{ row: 1, column: null, message: 'The file has no header row.' }],
    };
  }
  const header = records[0].record.map((name) => name.trim());
  const locales = new Map<string, { locale: string; field: string }>();
  header.forEach((name) => {
    const match = /^(title_name|description)\.(.+)$/.exec(name);
    if ((CSV_COLUMNS as readonly string[]).includes(name)) return;
    const locale = match ? canonicalLocale(match[2]) : undefined;
    if (match && locale) locales.set(name, { locale, field: match[1] });
    else errors.push({ row: 1, column: name, message: `There is no column "${name}".` });
  });
  for (const required of ['external_id', 'kind', 'title_name']) {
    if (!header.includes(required)) {
      errors.push({ row: 1, column: required, message: `The column ${required} is required.` });
    }
  }
  const duplicated = header.filter((name, i) => header.indexOf(name) !== i);
  for (const name of new Set(duplicated)) {
    errors.push({ row: 1, column: name, message: `The column ${name} is given twice.` });
  }
  if (errors.length) return { items: [], errors };
  // Lines are counted here: a record starts on the line after the previous
  // one ends, and a quoted cell may hold line breaks (CRLF, CR or LF).
  const breaksIn = (record: string[]) =>
    record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
  let nextLine = 2 + breaksIn(records[0].record);
  const rows: CsvRow[] = records.slice(1).map(({ record }) => {
    const line = nextLine;
    nextLine += 1 + breaksIn(record);
    return { line, cells: new Map(record.map((cell, i) => [header[i], unescapeCell(cell)])) };
  });
  const has = (column: string) => header.includes(column);
  const itemRows = new Map<string, CsvRow>();
  const optionRows = new Map<string, CsvRow[]>();
  const seen = new Set<string>();
  for (const row of rows) {
    const cell = (column: CsvColumn) => row.cells.get(column) ?? '';
    const id = cell('external_id').trim();
    const kind = cell('kind').trim();
    if (id === '' || id.length > 255) {
      errors.push({ row: row.line, column: 'external_id', message: 'external_id is required.' });
      continue;
    }
    if (seen.has(id)) {
      errors.push({ row: row.line, column: 'external_id', message: `"${id}" is used twice.` });
      continue;
    }
    seen.add(id);
    if (kind === 'item') {
      itemRows.set(id, row);
    } else if (kind === 'option') {
      const parent = cell('parent_external_id').trim();
      if (parent === '') {
        errors.push({
          row: row.line,
          column: 'parent_external_id',
          message: 'An option row names its item in parent_external_id.',
        });
        continue;
      }
      optionRows.set(parent, [...(optionRows.get(parent) ?? []), row]);
    } else {
      errors.push({ row: row.line, column: 'kind', message: 'kind must be item or option.' });
    }
  }
  for (const [parent, options] of optionRows) {
    if (!itemRows.has(parent)) {
      for (const row of options) {
        errors.push({
          row: row.line,
          column: 'parent_external_id',
          message: `No item row of this file has the external_id "${parent}".`,
        });
      }
    }
  }
  const items = [...itemRows].map(([id, row]) =>
    csvItem(id, row, optionRows.get(id) ?? [], has, locales),
  );
  return { items, errors };
}

function csvItem(
  externalId: string,
  row: CsvRow,
  options: CsvRow[],
  has: (column: string) => boolean,
  locales: Map<string, { locale: string; field: string }>,
): ImportItem {
  /** Where each option of the body came from: `${group index}/${option index}` → row. */
  const origins = new Map<string, CsvRow>();
  return {
    externalId,
    body: (current) => {
      const cell = (column: string) => row.cells.get(column) ?? '';
      const body: Record<string, unknown> = {};
      const extra: Record<string, unknown> = { ...(current?.extraData ?? {}) };
      if (has('title_name')) body.title_name = textFromCell(cell('title_name'), current?.titleName);
      if (has('description')) {
        body.description = textFromCell(cell('description'), current?.description);
      }
      for (const column of ITEM_EXTRA_COLUMNS) {
        if (has(column)) setFromCell(extra, column, cell(column) === '' ? undefined : cell(column));
      }
      for (const column of LIST_COLUMNS) {
        if (has(column)) setFromCell(extra, column, listValue(cell(column)));
      }
      for (const [column, { locale, field }] of locales) {
        setTranslation(extra, locale, field, cell(column));
      }
      if (options.length > 0) {
        extra.option_groups = optionGroupsFrom(
          groupsOf(extra),
          options,
          externalId,
          has,
          locales,
          origins,
        );
      }
      body.extra_data = withExternalId(extra, externalId, current);
      return body as EntityBodyDto;
    },
    locate: (field) => {
      const option =
        field && /^extra_data\.option_groups\[(\d+)\]\.options\[(\d+)\](?:\.(\w+))?/.exec(field);
      if (option) {
        const origin = origins.get(`${option[1]}/${option[2]}`);
        const name = option[3] ?? 'external_id';
        return {
          row: origin?.line ?? row.line,
          column: OPTION_FIELD_COLUMNS[name] ?? (name === 'translations' ? 'title_name' : name),
        };
      }
      if (field?.startsWith('extra_data.option_groups'))
        return { row: row.line, column: 'option_group' };
      const name = field?.replace(/^extra_data\./, '').split(/[.[]/)[0] ?? null;
      return { row: row.line, column: name === 'translations' ? translationColumn(field) : name };
    },
  };
}

/** `extra_data.translations.fr.title_name` → `title_name.fr`. */
function translationColumn(field: string | undefined): string {
  const match = field ? /^extra_data\.translations\.([^.]+)\.(\w+)/.exec(field) : null;
  return match ? `${match[2]}.${match[1]}` : 'title_name';
}

/**
 * The item's option groups with the options of the file: a group the file
 * names keeps its title, counts and translations and takes the file's
 * options, in `sort_position` order; a new group is made with its key as its
 * title; a group with options that the file does not name is left out.
 */
function optionGroupsFrom(
  groups: Array<Record<string, unknown>>,
  rows: CsvRow[],
  externalId: string,
  has: (column: string) => boolean,
  locales: Map<string, { locale: string; field: string }>,
  origins: Map<string, CsvRow>,
): Array<Record<string, unknown>> {
  const byGroup = new Map<string, CsvRow[]>();
  for (const row of rows) {
    const key = (row.cells.get('option_group') ?? '').trim();
    byGroup.set(key, [...(byGroup.get(key) ?? []), row]);
  }
  const result: Array<Record<string, unknown>> = [];
  const named = new Set(byGroup.keys());
  for (const group of groups) {
    const key = typeof group.key === 'string' ? group.key : '';
    if (named.has(key)) result.push({ ...group, options: [] });
    else if (optionsOf(group).length === 0) result.push(group);
  }
  for (const key of named) {
    if (!result.some((group) => group.key === key)) result.push({ key, title: key, options: [] });
  }
  origins.clear();
  result.forEach((group, g) => {
    const rowsOfGroup = byGroup.get(group.key as string);
    if (!rowsOfGroup) return;
    const before = groups.find((old) => old.key === group.key);
    const sorted = rowsOfGroup
      .map((row, index) => ({
        row,
        index,
        position: Number(row.cells.get('sort_position') || index),
      }))
      .sort((a, b) => a.position - b.position || a.index - b.index)
      .map(({ row }) => row);
    group.options = sorted.map((row, o) => {
      origins.set(`${g}/${o}`, row);
      const cell = (column: string) => row.cells.get(column) ?? '';
      const id = cell('external_id').trim();
      const prefix = `${externalId}:${group.key as string}:`;
      const key = id.startsWith(prefix) ? id.slice(prefix.length) : id;
      const old = before ? optionsOf(before).find((option) => option.key === key) : undefined;
      const option: Record<string, unknown> = { ...(old ?? {}), key };
      if (has('title_name'))
        setFromCell(option, 'title', cell('title_name') === '' ? undefined : cell('title_name'));
      if (has('unit_price_amount')) {
        setFromCell(
          option,
          'price_delta',
          cell('unit_price_amount') === '' ? undefined : cell('unit_price_amount'),
        );
      }
      if (has('available'))
        setFromCell(option, 'available', cell('available') === '' ? undefined : cell('available'));
      for (const column of LIST_COLUMNS) {
        if (has(column)) setFromCell(option, column, listValue(cell(column)));
      }
      for (const [column, { locale, field }] of locales) {
        if (field === 'title_name') setTranslation(option, locale, 'title', cell(column));
      }
      return option;
    });
  });
  return result;
}
