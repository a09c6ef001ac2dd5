import { ErrorDetail } from '../http/api-error';

/** `extra_data` is at most 64 KiB (its JSON text, after normalising). */
export const EXTRA_DATA_MAX_BYTES = 64 * 1024;

/** An OpenAPI schema object. */
export type SchemaObject = Record<string, unknown>;

/**
 * One rule of `extra_data`, written once: called, it checks one value and
 * returns what is stored (a fault is pushed to `faults`, one per field, named
 * by its dotted path; the return value is then ignored); its `schema` is the
 * OpenAPI description of the values it accepts.
 */
export interface FieldRule {
  (value: unknown, field: string, faults: ErrorDetail[]): unknown;
  readonly schema: SchemaObject;
}

/** What a rule says of itself in the OpenAPI document. */
export interface Described {
  description?: string;
  example?: unknown;
}

/** Makes a rule of a check and the schema of what it accepts. */
export function rule(
  check: (value: unknown, field: string, faults: ErrorDetail[]) => unknown,
  schema: SchemaObject,
  described: Described = {},
): FieldRule {
  const { description, example } = described;
  const text = [description, schema.description].filter(Boolean).join(' ');
  return Object.assign(check, {
    schema: {
      ...schema,
      ...(text ? { description: text } : {}),
      ...(example !== undefined ? { example } : {}),
    },
  });
}

export const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });

export interface ExtraDataSchema {
  /** What the extra_data of this type is, for the OpenAPI document. */
  description?: string;
  /** Known keys and their rules; every other key is kept as sent (it is the extensible part). */
  fields: Record<string, FieldRule>;
  /** Keys that must be present and not null. */
  required?: readonly string[];
  /** Rules across fields, run only when every field passed on its own. */
  check?: (data: Record<string, unknown>, faults: ErrorDetail[]) => void;
  /**
   * The part of the data the size limit counts, when a field has limits of
   * its own that allow more (a menu's delivery zones); default: all of it.
   */
  sized?: (data: Record<string, unknown>) => Record<string, unknown>;
}

const INTEGER_TEXT = /^-?\d{1,16}$/;
/** Non-negative, at most 12 integer digits and 2 decimals: fits the orders' numeric(14,2). */
const AMOUNT_TEXT = /^\d{1,12}(\.\d{1,2})?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string; null means "not set" and is kept. */
export function text(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null || typeof value === 'string') return value;
      faults.push({ field, message: `${field} must be a string.` });
    },
    nullable({ type: 'string' }),
    described,
  );
}

/** An email address, or empty. */
export function email(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null || value === '') return value;
      if (typeof value === 'string' && value.length <= 320 && EMAIL.test(value)) return value;
      faults.push({ field, message: `${field} must be an email address.` });
    },
    nullable({
      type: 'string',
      format: 'email',
      maxLength: 320,
      description: 'An email address, or empty.',
    }),
    described,
  );
}

/** A boolean; form-style "true" / "false" are accepted and stored as booleans. */
export function flag(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null || typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      faults.push({ field, message: `${field} must be true or false.` });
    },
    nullable({
      type: 'boolean',
      description: 'The strings "true" and "false" are accepted and stored as booleans.',
    }),
    described,
  );
}

/**
 * An integer, or a string holding one (real clients send form strings);
 * stored as an integer.
 */
export function integer(options: { min?: number; max?: number } & Described = {}): FieldRule {
  const { min, max, ...described } = options;
  // No `nullable` beside `oneOf` (OpenAPI 3.0 ties it to `type`); null still means "not set".
  const schema = {
    oneOf: [
      {
        type: 'integer',
        ...(min !== undefined ? { minimum: min } : {}),
        ...(max !== undefined ? { maximum: max } : {}),
      },
      { type: 'string', pattern: INTEGER_TEXT.source },
    ],
    description: 'A whole number, or a string holding one; stored as a number.',
  };
  return rule(
    (value, field, faults) => {
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
      if (max !== undefined && parsed > max) {
        faults.push({ field, message: `${field} must be at most ${max}.` });
        return;
      }
      return parsed;
    },
    schema,
    described,
  );
}

/**
 * A money amount as decimal text ("12.50"); a JSON number is accepted and
 * stored as its string, so that no binary float reaches the prices.
 */
export function amount(described?: Described): FieldRule {
  const schema = {
    oneOf: [
      { type: 'string', pattern: AMOUNT_TEXT.source },
      { type: 'number', minimum: 0 },
    ],
    description:
      'A non-negative decimal with at most 2 decimals. A JSON number is accepted and stored as ' +
      'its string, so amounts never pass through binary floats.',
  };
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      let candidate: string | undefined;
      if (typeof value === 'string') candidate = value.trim();
      if (typeof value === 'number' && Number.isFinite(value)) candidate = String(value);
      if (candidate !== undefined && AMOUNT_TEXT.test(candidate)) return candidate;
      faults.push({
        field,
        message: `${field} must be a non-negative decimal amount with at most 2 decimals, such as "12.50".`,
      });
    },
    schema,
    described,
  );
}

/** An array of strings. */
export function textList(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value;
      faults.push({ field, message: `${field} must be an array of strings.` });
    },
    nullable({ type: 'array', items: { type: 'string' } }),
    described,
  );
}

/** An object whose known keys follow their rules; other keys are kept. */
export function shape(fields: Record<string, FieldRule>, described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      if (!isPlainObject(value)) {
        faults.push({ field, message: `${field} must be an object.` });
        return;
      }
      return normaliseFields(fields, value, field, faults);
    },
    nullable(objectSchema(fields)),
    described,
  );
}

/** The schema of an object whose known keys follow `fields`; other keys are allowed. */
export function objectSchema(fields: Record<string, FieldRule>, required?: readonly string[]) {
  return {
    type: 'object',
    additionalProperties: true,
    ...(required?.length ? { required: [...required] } : {}),
    properties: Object.fromEntries(Object.entries(fields).map(([key, f]) => [key, f.schema])),
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
  const sized = schema.sized ? schema.sized(value) : value;
  if (faults.length === 0 && Buffer.byteLength(JSON.stringify(sized)) > EXTRA_DATA_MAX_BYTES) {
    faults.push({
      field: 'extra_data',
      message: `extra_data must be at most ${EXTRA_DATA_MAX_BYTES} bytes of JSON.`,
    });
  }
  return { value, faults };
}
