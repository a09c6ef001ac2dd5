import { Transform } from 'class-transformer';
import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

/** The field must hold the same value as `other` (password confirmations). */
export function EqualsField(other: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'equalsField',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [other],
      options: { message: `$property must equal ${other}`, ...options },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          value === (args.object as Record<string, unknown>)[other],
      },
    });
}

/** A JSON object or array (meta_data: clients send either, and it is stored as sent). */
export function IsJsonContainer(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isObject',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be a JSON object or array', ...options },
      validator: { validate: (value: unknown) => typeof value === 'object' && value !== null },
    });
}

/** The value, written as JSON, fits in `bytes` (meta_data: 16 KiB). */
export function MaxJsonBytes(bytes: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxJsonBytes',
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [bytes],
      options: { message: `$property must be at most ${bytes} bytes as JSON`, ...options },
      validator: {
        validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '') <= bytes,
      },
    });
}

/** Strings are trimmed; anything else is left for the validators to refuse. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A code typed as a number by a form is taken as its digits. */
export const CodeText = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? String(value)
      : typeof value === 'string'
        ? value.trim()
        : value,
  );

/** Trimmed; an empty string counts as not sent (optional fields clients send as ""). */
export const TrimOrAbsent = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  });
