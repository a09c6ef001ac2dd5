/*
 * Menu export (R120) and what the import shares with it: the CSV columns,
 * the external ids, the limits. Reading a file is in menu-import.ts (JSON)
 * and menu-import-csv.ts (CSV).
 */
import { EntityResponseDto } from './dto/entity-response.dto';
import { EntityRecord } from './entity-record.entity';
import { isPlainObject } from './extra-data';
import { readMenuLanguages } from './domain/menu-labels';

/** At most this many items in one import (option rows are not counted). */
export const MAX_IMPORT_ITEMS = 2000;
/** The import route's own body limit. */
export const IMPORT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** One fault of an import: the file's line (the header is 1; null for JSON) and its column or JSON pointer. */
export interface ImportError {
  row: number | null;
  column: string | null;
  message: string;
}

/** The fixed columns of the CSV, in their order; the locale columns follow. */
export const CSV_COLUMNS = [
  'external_id',
  'parent_external_id',
  'kind',
  'category',
  'title_name',
  'description',
  'unit_price_amount',
  'option_group',
  'available',
  'sort_position',
  'minimum_quantity_per_order',
  'maximum_quantity_per_order',
  'allergens',
  'may_contain',
  'dietary',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export const LIST_COLUMNS = ['allergens', 'may_contain', 'dietary'] as const;
/** Item columns kept in `extra_data` under their own name. */
export const ITEM_EXTRA_COLUMNS = [
  'category',
  'unit_price_amount',
  'available',
  'sort_position',
  'minimum_quantity_per_order',
  'maximum_quantity_per_order',
] as const;

/** An item's `external_id`: the one it was imported with, else its uuid (R120). */
export function externalIdOf(record: Pick<EntityRecord, 'uuid' | 'extraData'>): string {
  const stored = record.extraData.external_id;
  return typeof stored === 'string' && stored !== '' ? stored : record.uuid;
}

/** A record's `extra_data` as exported: its `external_id` is a field of the item instead. */
function exportedExtra(extra: Record<string, unknown>): Record<string, unknown> {
  const { external_id: _ignored, ...rest } = extra;
  return rest;
}

/** The bare JSON document of a menu's export: the menu's settings and its items. */
export function exportDocument(
  menu: EntityResponseDto,
  items: Array<{ record: EntityRecord; view: EntityResponseDto }>,
): Record<string, unknown> {
  return {
    format: 'menu',
    version: 1,
    menu: {
      uuid: menu.uuid,
      title_name: menu.title_name,
      description: menu.description,
      extra_data: menu.extra_data,
    },
    items: items.map(({ record, view }) => ({
      external_id: externalIdOf(record),
      title_name: view.title_name,
      description: view.description,
      status: view.status,
      extra_data: exportedExtra(view.extra_data),
    })),
  };
}

/*
 * CSV cells as RFC 4180 writes them, safe against formula injection: a cell
 * that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is
 * prefixed with `'` so that spreadsheet programs show it as text (the same
 * rule as the orders export); the import takes that `'` off again.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const textCell = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
const listCell = (value: unknown): string =>
  Array.isArray(value) ? value.map(textCell).join(';') : textCell(value);

function translationOf(translations: unknown, locale: string, field: string): unknown {
  if (!isPlainObject(translations)) return undefined;
  const entry = translations[locale];
  return isPlainObject(entry) ? entry[field] : undefined;
}

/** The locales of the CSV's columns: the menu's languages but the default, and any other a record has. */
export function csvLocales(menu: EntityResponseDto, items: EntityRecord[]): string[] {
  const languages = readMenuLanguages(menu.extra_data.languages);
  const found = new Set<string>(languages?.available ?? []);
  const add = (translations: unknown) => {
    if (isPlainObject(translations)) Object.keys(translations).forEach((l) => found.add(l));
  };
  for (const item of items) {
    add(item.extraData.translations);
    for (const group of groupsOf(item.extraData)) {
      for (const option of optionsOf(group)) add(option.translations);
    }
  }
  if (languages) found.delete(languages.default);
  return [...found].sort();
}

export function groupsOf(extra: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(extra.option_groups) ? extra.option_groups.filter(isPlainObject) : [];
}

export function optionsOf(group: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(group.options) ? group.options.filter(isPlainObject) : [];
}

/** The CSV export: one row per item and one per option, then the locale columns (R120). */
export function exportCsv(menu: EntityResponseDto, items: EntityRecord[]): string {
  const locales = csvLocales(menu, items);
  const header = [
    ...CSV_COLUMNS,
    ...locales.flatMap((locale) => [`title_name.${locale}`, `description.${locale}`]),
  ];
  let text = csvLine(header);
  for (const item of items) {
    const extra = item.extraData;
    const id = externalIdOf(item);
    text += csvLine([
      id,
      '',
      'item',
      textCell(extra.category),
      textCell(item.titleName),
      textCell(item.description),
      textCell(extra.unit_price_amount),
      '',
      textCell(extra.available),
      textCell(extra.sort_position),
      textCell(extra.minimum_quantity_per_order),
      textCell(extra.maximum_quantity_per_order),
      ...LIST_COLUMNS.map((column) => listCell(extra[column])),
      ...locales.flatMap((locale) => [
        textCell(translationOf(extra.translations, locale, 'title_name')),
        textCell(translationOf(extra.translations, locale, 'description')),
      ]),
    ]);
    for (const group of groupsOf(extra)) {
      optionsOf(group).forEach((option, index) => {
        text += csvLine([
          `${id}:${textCell(group.key)}:${textCell(option.key)}`,
          id,
          'option',
          '',
          textCell(option.title),
          '',
          textCell(option.price_delta),
          textCell(group.key),
          textCell(option.available),
          String(index),
          '',
          '',
          ...LIST_COLUMNS.map((column) => listCell(option[column])),
          ...locales.flatMap((locale) => [
            textCell(translationOf(option.translations, locale, 'title')),
            '',
          ]),
        ]);
      });
    }
  }
  return text;
}
