import { isPrivateSetting } from './private-settings';

/**
 * How a caller stands to a record: the owner of its business, a member of
 * that business's team (manager or staff), or anyone else (a caller with
 * only the API key, or with another user's token).
 */
export type Reader = 'owner' | 'member' | 'public';

/** The readers from the one who may read the most to the one who may read the least. */
const READERS: readonly Reader[] = ['owner', 'member', 'public'];

/**
 * Fields of a record answer that not every reader may read; every other
 * field is everyone's. A field is named as a list names it: a column
 * (`updated_by`) or `extra_data.<key>`.
 *
 * - `updated_by` is the uuid of the user who last wrote the record, often a
 *   member of the team: the owner and the team read it, nobody else.
 * - A private setting in `extra_data` (`paystack_subaccount_code`, any key
 *   starting with `private_`) is the business's: its owner and its team
 *   read it, nobody else (a member's write still keeps it as stored).
 */
// R70: property-level reads.
export function mayRead(reader: Reader, field: string): boolean {
  if (field.startsWith('extra_data.')) {
    return reader !== 'public' || !isPrivateSetting(field.slice('extra_data.'.length));
  }
  if (field === 'updated_by') return reader !== 'public';
  return true;
}

/** The reader who may read the least of several (what a list mixing them may show to all). */
export function leastOf(...readers: Reader[]): Reader {
  return READERS[Math.max(...readers.map((reader) => READERS.indexOf(reader)))];
}

/** What the rule needs of a record answer. */
interface ReadableRecord {
  updated_by: string | null;
  extra_data: Record<string, unknown>;
}

/**
 * The record as `reader` may see it: each `extra_data` key the reader may
 * not read is left out, and `updated_by` is null when they may not read it.
 * The same object when nothing is hidden.
 */
export function readableView<T extends ReadableRecord>(reader: Reader, record: T): T {
  const keys = Object.keys(record.extra_data);
  const hidden = keys.filter((key) => !mayRead(reader, `extra_data.${key}`));
  const hideAuthor = record.updated_by !== null && !mayRead(reader, 'updated_by');
  if (hidden.length === 0 && !hideAuthor) return record;
  const view: T = { ...record };
  if (hidden.length) {
    const extra: Record<string, unknown> = {};
    for (const key of keys) if (!hidden.includes(key)) extra[key] = record.extra_data[key];
    view.extra_data = extra;
  }
  if (hideAuthor) view.updated_by = null;
  return view;
}

/** A query parameter of a list and the fields of the record it reads. */
export interface FieldUse {
  param: string;
  fields: readonly string[];
}

/**
 * The first parameter that reads a field `reader` may not read: sorting or
 * filtering by a field tells its value (by where a record of one's own lands
 * beside it), so a list refuses what its answer would leave out.
 */
export function unreadableUse(reader: Reader, uses: readonly FieldUse[]): FieldUse | undefined {
  return uses.find((use) => use.fields.some((field) => !mayRead(reader, field)));
}
