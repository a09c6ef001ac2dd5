import { ErrorDetail } from '../http/api-error';
import { EntityBodyDto } from './dto/entity-body.dto';
import { EntityRecord } from './entity-record.entity';
import { isPlainObject } from './extra-data';
import { ImportError } from './menu-transfer';

/*
 * Menu import (R121), what the JSON and CSV files have in common: the items a
 * file names, where each fault is in the file, and the JSON file's reading.
 * The CSV file's reading is in menu-import-csv.ts.
 */

/**
 * One item of an import file: its `external_id`, the body it would be sent
 * alone with (over the matched item, when there is one), and where a fault of
 * that body is in the file.
 */
export interface ImportItem {
  externalId: string;
  body(current: EntityRecord | undefined): EntityBodyDto;
  locate(field: string | undefined): { row: number | null; column: string | null };
}

export interface ParsedImport {
  items: ImportItem[];
  errors: ImportError[];
}

/** A JSON pointer segment. */
const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** `extra_data.option_groups[0].options[1].title` → `/extra_data/option_groups/0/options/1/title`. */
function fieldPointer(field: string): string {
  return field
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map(pointerSegment)
    .map((part) => `/${part}`)
    .join('');
}

/** The JSON import: the export's document, or any `{items: [...]}` of the same shape (R121). */
export function parseJsonImport(input: unknown): ParsedImport {
  const errors: ImportError[] = [];
  if (!isPlainObject(input) || !Array.isArray(input.items)) {
    return {
      items: [],
      errors: [{ row: null, column: '/items', message: 'The document must have an items list.' }],
    };
  }
  const items: ImportItem[] = [];
  input.items.forEach((entry: unknown, index) => {
    const at = `/items/${index}`;
    if (!isPlainObject(entry)) {
      errors.push({ row: null, column: at, message: 'An item must be an object.' });
      return;
    }
    const externalId = entry.external_id;
    if (typeof externalId !== 'string' || externalId.trim() === '' || externalId.length > 255) {
      errors.push({
        row: null,
        column: `${at}/external_id`,
        message: 'external_id must be a non-empty string of at most 255 characters.',
      });
      return;
    }
    if (entry.extra_data !== undefined && !isPlainObject(entry.extra_data)) {
      errors.push({
        row: null,
        column: `${at}/extra_data`,
        message: 'extra_data must be an object.',
      });
      return;
    }
    items.push({
      externalId,
      body: (current) => {
        const body: Record<string, unknown> = {};
        for (const field of ['title_name', 'description', 'status'] as const) {
          if (entry[field] !== undefined) body[field] = entry[field];
        }
        const sent = entry.extra_data as Record<string, unknown> | undefined;
        const extra = sent ?? (current ? undefined : {});
        if (extra) body.extra_data = withExternalId(extra, externalId, current);
        return body as EntityBodyDto;
      },
      locate: (field) => ({ row: null, column: field ? `${at}${fieldPointer(field)}` : at }),
    });
  });
  return { items, errors };
}

/** The item's `external_id` is stored unless it is the item's own uuid and none was stored. */
export function withExternalId(
  extra: Record<string, unknown>,
  externalId: string,
  current: EntityRecord | undefined,
): Record<string, unknown> {
  const { external_id: _sent, ...rest } = extra;
  const storedBefore = current?.extraData.external_id;
  if (current && storedBefore === undefined && current.uuid === externalId) return rest;
  return { ...rest, external_id: externalId };
}

/** The fault of a refused row body, placed in the file. */
export function importErrorsOf(item: ImportItem, details: ErrorDetail[]): ImportError[] {
  return details.map((detail) => ({ ...item.locate(detail.field), message: detail.message }));
}

/** Values compared as JSON documents, whatever the order of their keys. */
export function sameDocument(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
