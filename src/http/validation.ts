import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { ApiError, ErrorDetail } from './api-error';
import { refuseUnstorableText } from './input-rules';
import { keepValidationMetadata } from './validation-metadata';

/**
 * Constraints that say what type a value must have. When one of them fails it
 * is the message, whatever else failed: "quantity must be an integer number",
 * not "quantity must not be greater than 1000000" for `"two"`.
 */
const TYPE_CONSTRAINTS = [
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
  'isEnum',
  'isIn',
  'isUuid',
  'isUUID',
  'isEmail',
  'isDateString',
  'isIso8601',
  'isISO8601',
];

/** The message of the rule that failed first, in the order a reader would check them. */
function firstMessage(error: ValidationError, field: string): string | undefined {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length === 0) return undefined;
  if (error.value === undefined || error.value === null) return `${field} is required`;
  const typed = TYPE_CONSTRAINTS.find((name) => name in constraints);
  if (typed) return constraints[typed];
  // Decorators register bottom-up; the one written first is checked last.
  return constraints[names[names.length - 1]];
}

function flatten(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const message = firstMessage(error, field);
    if (message) details.push({ field, message });
    else if (error.children?.length) details.push(...flatten(error.children, field));
  }
  return details;
}

const NULL_IS_A_VALUE = Symbol('nullIsAValue');

// R28: liberal input.
/**
 * On an optional field where `null` means something (clearing the stored
 * value on an update): null is passed on instead of being taken as "not
 * sent". The field's description should say what null does.
 */
export function NullIsAValue(): PropertyDecorator {
  return (target, propertyName) => {
    const names: Set<string> =
      Reflect.getOwnMetadata(NULL_IS_A_VALUE, target.constructor) ?? new Set();
    names.add(String(propertyName));
    Reflect.defineMetadata(NULL_IS_A_VALUE, names, target.constructor);
  };
}

interface ClassShape {
  optional: Set<string>;
  /** Properties validated as nested objects: their class and whether each element is one. */
  nested: Map<string, { type: Type<unknown> | undefined; each: boolean }>;
}

const shapes = new WeakMap<object, ClassShape>();

function shapeOf(target: Type<unknown>): ClassShape {
  let shape = shapes.get(target);
  if (shape) return shape;
  shape = { optional: new Set(), nested: new Map() };
  for (const meta of getMetadataStorage().getTargetValidationMetadatas(target, '', true, false)) {
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION && meta.name === 'isOptional') {
      shape.optional.add(meta.propertyName);
    }
    if (meta.type === ValidationTypes.NESTED_VALIDATION) {
      const typeMeta = defaultMetadataStorage.findTypeMetadata(target, meta.propertyName);
      const type = typeMeta?.typeFunction() as Type<unknown> | undefined;
      shape.nested.set(meta.propertyName, { type, each: meta.each === true });
    }
  }
  const keepNull: Set<string> | undefined = Reflect.getMetadata(NULL_IS_A_VALUE, target);
  for (const name of keepNull ?? []) shape.optional.delete(name);
  shapes.set(target, shape);
  return shape;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Before class-transformer sees the value: an optional field sent as null is
 * taken as not sent, and a nested object of the wrong JSON type (an array
 * where an object belongs, `[[]]` where a list of objects belongs) is refused
 * naming its field, at any depth. Nesting is bounded by the body parser.
 */
function normalise(target: Type<unknown>, value: Record<string, unknown>, path: string): void {
  const shape = shapeOf(target);
  for (const name of shape.optional) {
    if (value[name] === null) delete value[name];
  }
  for (const [name, { type, each }] of shape.nested) {
    const inner = value[name];
    if (inner === undefined || inner === null) continue;
    const field = path ? `${path}.${name}` : name;
    const items: Array<[unknown, string]> = each
      ? Array.isArray(inner)
        ? inner.map((item, index) => [item, `${field}.${index}`])
        : []
      : [[inner, field]];
    for (const [item, itemField] of items) {
      if (!isPlainObject(item)) {
        throw ApiError.validation([
          { field: itemField, message: `${itemField} must be an object` },
        ]);
      }
      if (type) normalise(type, item, itemField);
    }
  }
}

/**
 * The one validation layer of every route: transform + whitelist (unknown
 * fields are dropped, never an error), one detail per bad field, each naming
 * the rule that failed first (missing → required, wrong type → the type).
 * Path parameters and query and body values are held to the string rule
 * (no U+0000, no lone surrogate) here and in the HTTP pipeline.
 */
class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      stopAtFirstError: false,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => ApiError.validation(flatten(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param') {
      refuseUnstorableText(value, metadata.data ?? '');
    }
    const metatype = metadata.metatype;
    if (
      metatype &&
      this.toValidate(metadata) &&
      (metadata.type === 'body' || metadata.type === 'query')
    ) {
      if (metadata.type === 'body' && value === undefined) value = {};
      if (!isPlainObject(value)) {
        throw ApiError.validation([{ field: 'body', message: 'body must be a JSON object' }]);
      }
      value = { ...value };
      normalise(metatype, value as Record<string, unknown>, '');
    }
    return super.transform(value, metadata);
  }
}

// R6: unknown fields.
export function createValidationPipe(): ValidationPipe {
  keepValidationMetadata();
  return new ApiValidationPipe();
}
