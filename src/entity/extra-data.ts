import { ErrorDetail } from '../http/api-error';
import { normaliseOpeningHours } from './domain/opening-hours';

/** `extra_data` is at most 64 KiB (its JSON text, after normalising). */
export const EXTRA_DATA_MAX_BYTES = 64 * 1024;

/**
 * Checks one value of `extra_data` and returns what is stored. A fault is
 * pushed to `faults` (one per field, named by its dotted path); the return
 * value is then ignored.
 */
export type FieldRule = (value: unknown, field: string, faults: ErrorDetail[]) => unknown;

export interface ExtraDataSchema {
  /** Known keys and their rules; every other key is kept as sent (it is the extensible part). */
  fields: Record<string, FieldRule>;
  /** Keys that must be present and not null. */
  required?: readonly string[];
  /** Rules across fields, run only when every field passed on its own. */
  check?: (data: Record<string, unknown>, faults: ErrorDetail[]) => void;
}

const INTEGER_TEXT = /^-?\d{1,16}$/;
/** Non-negative, at most 12 integer digits and 2 decimals: fits the orders' numeric(14,2). */
const AMOUNT_TEXT = /^\d{1,12}(\.\d{1,2})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string; null means "not set" and is kept. */
export function text(): FieldRule {
  return (value, field, faults) => {
    if (value === null || typeof value === 'string') return value;
    faults.push({ field, message: `${field} must be a string.` });
  };
}

/** An email address, or empty. */
export function email(): FieldRule {
  return (value, field, faults) => {
    if (value === null || value === '') return value;
    if (typeof value === 'string' && value.length <= 320 && EMAIL.test(value)) return value;
    faults.push({ field, message: `${field} must be an email address.` });
  };
}

/** A boolean; form-style "true" / "false" are accepted and stored as booleans. */
export function flag(): FieldRule {
  return (value, field, faults) => {
    if (value === null || typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    faults.push({ field, message: `${field} must be true or false.` });
  };
}

/**
 * An integer, or a string holding one (real clients send form strings);
 * stored as an integer.
 */
export function integer(options: { min?: number } = {}): FieldRule {
  return (value, field, faults) => {
    if (value === null) return value;
    let parsed: number | undefined;
    if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = value;
    if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) {
      const candidate = Number(value.trim());
      if (Number.isSafeInteger(candidate)) parsed = candidate;
    }
    if (parsed === undefined) {
      faults.push({ field, message: `${field} must be a whole number.` });
      return;
    }
    if (options.min !== undefined && parsed < options.min) {
      faults.push({ field, message: `${field} must be at least ${options.min}.` });
      return;
    }
    return parsed;
  };
}

/**
 * A money amount as decimal text ("12.50"); a JSON number is accepted and
 * stored as its string, so that no binary float reaches the prices.
 */
export function amount(): FieldRule {
  return (value, field, faults) => {
    if (value === null) return value;
    let candidate: string | undefined;
    if (typeof value === 'string') candidate = value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) candidate = String(value);
    if (candidate !== undefined && AMOUNT_TEXT.test(candidate)) return candidate;
    faults.push({
      field,
      message: `${field} must be a non-negative decimal amount with at most 2 decimals, such as "12.50".`,
    });
  };
}

/** An array of strings. */
export function textList(): FieldRule {
  return (value, field, faults) => {
    if (value === null) return value;
    if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value;
    faults.push({ field, message: `${field} must be an array of strings.` });
  };
}

/** An array, or an object keyed by name; stored as sent. */
export function listOrMap(): FieldRule {
  return (value, field, faults) => {
    if (value === null || Array.isArray(value) || isPlainObject(value)) return value;
    faults.push({ field, message: `${field} must be an array or an object.` });
  };
}

/** An object whose known keys follow their rules; other keys are kept. */
export function shape(fields: Record<string, FieldRule>): FieldRule {
  return (value, field, faults) => {
    if (value === null) return value;
    if (!isPlainObject(value)) {
      faults.push({ field, message: `${field} must be an object.` });
      return;
    }
    return normaliseFields(fields, value, field, faults);
  };
}

function normaliseFields(
  fields: Record<string, FieldRule>,
  input: Record<string, unknown>,
  path: string,
  faults: ErrorDetail[],
): Record<string, unknown> {
  // Object.fromEntries defines own properties, so a "__proto__" key stays plain data.
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      const rule = Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
      return [key, rule && value !== undefined ? rule(value, `${path}.${key}`, faults) : value];
    }),
  );
}

/** A business's opening hours; the rules are those of `normaliseOpeningHours`. */
export function openingHours(): FieldRule {
  return (value, field, faults) => normaliseOpeningHours(value, field, faults);
}

const OPTION_KEY = /^[a-z0-9_-]{1,64}$/;
export const MAX_OPTION_GROUPS = 20;
export const MAX_OPTIONS_PER_GROUP = 50;

/**
 * An item's option groups (sizes, extras, sides):
 * `[{ key, title, min_selected, max_selected, options: [{ key, title, price_delta, available }] }]`.
 * Keys match `^[a-z0-9_-]{1,64}$` and are unique (groups within the item,
 * options within their group); `0 ≤ min_selected ≤ max_selected ≤` the number
 * of options (min defaults to 0, max to the number of options);
 * `price_delta` is a non-negative amount (default "0", a number is stored as
 * its string); `available` a boolean (default true); at most 20 groups of at
 * most 50 options. Each fault names its path, such as
 * `extra_data.option_groups[1].options[0].price_delta`. Other keys are kept.
 */
export function optionGroups(): FieldRule {
  const title = text();
  const delta = amount();
  const available = flag();
  const count = integer({ min: 0 });
  const key = (value: unknown, at: string, seen: Set<string>, faults: ErrorDetail[]) => {
    if (typeof value !== 'string' || !OPTION_KEY.test(value)) {
      faults.push({ field: at, message: `${at} must match ^[a-z0-9_-]{1,64}$.` });
    } else if (seen.has(value)) {
      faults.push({ field: at, message: `${at} "${value}" is used twice.` });
    } else {
      seen.add(value);
    }
  };
  return (value, field, faults) => {
    if (value === null) return value;
    if (!Array.isArray(value) || value.length > MAX_OPTION_GROUPS) {
      faults.push({
        field,
        message: `${field} must be a list of at most ${MAX_OPTION_GROUPS} option groups.`,
      });
      return;
    }
    const groupKeys = new Set<string>();
    return value.map((group: unknown, g) => {
      const at = `${field}[${g}]`;
      if (!isPlainObject(group)) {
        faults.push({ field: at, message: `${at} must be an object.` });
        return group;
      }
      const before = faults.length;
      key(group.key, `${at}.key`, groupKeys, faults);
      const groupTitle = title(group.title ?? null, `${at}.title`, faults);
      const options = group.options;
      let kept: unknown[] = [];
      if (!Array.isArray(options) || options.length > MAX_OPTIONS_PER_GROUP) {
        faults.push({
          field: `${at}.options`,
          message: `${at}.options must be a list of at most ${MAX_OPTIONS_PER_GROUP} options.`,
        });
      } else {
        const optionKeys = new Set<string>();
        kept = options.map((option: unknown, o) => {
          const oat = `${at}.options[${o}]`;
          if (!isPlainObject(option)) {
            faults.push({ field: oat, message: `${oat} must be an object.` });
            return option;
          }
          key(option.key, `${oat}.key`, optionKeys, faults);
          const result: Record<string, unknown> = {
            ...option,
            title: title(option.title ?? null, `${oat}.title`, faults),
            price_delta: delta(option.price_delta ?? '0', `${oat}.price_delta`, faults),
          };
          if (option.available !== undefined) {
            result.available = available(option.available, `${oat}.available`, faults);
          }
          return result;
        });
      }
      const optionCount = kept.length;
      const min = count(group.min_selected ?? 0, `${at}.min_selected`, faults);
      const max = count(group.max_selected ?? optionCount, `${at}.max_selected`, faults);
      if (faults.length === before) {
        if ((min as number) > (max as number)) {
          faults.push({
            field: `${at}.min_selected`,
            message: `${at}.min_selected must not be above max_selected.`,
          });
        } else if ((max as number) > optionCount) {
          faults.push({
            field: `${at}.max_selected`,
            message: `${at}.max_selected must not be above the number of options (${optionCount}).`,
          });
        }
      }
      return {
        ...group,
        title: groupTitle,
        min_selected: min,
        max_selected: max,
        options: kept,
      };
    });
  };
}

export interface ExtraDataResult {
  value: Record<string, unknown>;
  faults: ErrorDetail[];
}

/**
 * Validates and normalises a whole `extra_data` for one entity type: one
 * fault per bad field, unknown keys kept, 64 KiB at most.
 */
export function normaliseExtraData(schema: ExtraDataSchema, input: unknown): ExtraDataResult {
  const faults: ErrorDetail[] = [];
  const data = input === undefined || input === null ? {} : input;
  if (!isPlainObject(data)) {
    return {
      value: {},
      faults: [{ field: 'extra_data', message: 'extra_data must be an object.' }],
    };
  }
  const value = normaliseFields(schema.fields, data, 'extra_data', faults);
  for (const key of schema.required ?? []) {
    const present = Object.prototype.hasOwnProperty.call(value, key) && value[key] !== null;
    if (!present && !faults.some((fault) => fault.field === `extra_data.${key}`)) {
      faults.push({ field: `extra_data.${key}`, message: `extra_data.${key} is required.` });
    }
  }
  if (faults.length === 0) schema.check?.(value, faults);
  if (faults.length === 0 && Buffer.byteLength(JSON.stringify(value)) > EXTRA_DATA_MAX_BYTES) {
    faults.push({
      field: 'extra_data',
      message: `extra_data must be at most ${EXTRA_DATA_MAX_BYTES} bytes of JSON.`,
    });
  }
  return { value, faults };
}
