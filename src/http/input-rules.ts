import { ApiError } from './api-error';

/** JSON nested deeper than this is refused before it is parsed into objects. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * The deepest nesting of JSON text, read byte by byte without parsing (so a
 * 5,000-deep body costs a loop, not a stack): the top-level value is level 1
 * and each array or object inside it adds one. Brackets inside strings do not
 * count. Works on UTF-8 bytes, as every structural character is ASCII.
 */
export function jsonDepth(text: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
      // A top-level string is a value of level 1.
      if (deepest === 0) deepest = 1;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return Math.max(deepest, 1);
}

/** Throws the 400 of a body nested deeper than MAX_JSON_DEPTH (a body-parser `verify`). */
export function refuseDeepJson(body: Uint8Array): void {
  if (jsonDepth(body) > MAX_JSON_DEPTH) {
    throw Object.assign(new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), {
      status: 400,
      expose: true,
      type: 'entity.too.deep',
    });
  }
}

/**
 * True for text PostgreSQL cannot store or that no client means to send:
 * U+0000, or half of a UTF-16 surrogate pair standing alone.
 */
export function isUnstorableText(text: string): boolean {
  if (text.includes('\u0000')) return true;
  // isWellFormed is Node 20+; it is false exactly when a lone surrogate is present.
  return !(text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The first string (a value or a key) of `value` that breaks isUnstorableText,
 * as a field path (`items.0.name`), or undefined. Walks with an explicit
 * stack, so the depth of the value cannot overflow the call stack.
 */
export function findUnstorableText(value: unknown, root: string): string | undefined {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnstorableText(current)) return path || 'body';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], join(path, String(i))]);
    } else if (isPlainObject(current)) {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        const field = join(path, key);
        if (isUnstorableText(key)) return field;
        stack.push([inner, field]);
      }
    }
  }
  return undefined;
}

/** Parsed JSON and query objects; a raw body (a Buffer) is not text to walk. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/** The 400 of the string rule, naming the field. */
export function unstorableTextError(field: string): ApiError {
  return ApiError.validation([
    { field, message: `${field} must not contain U+0000 or a lone UTF-16 surrogate` },
  ]);
}

/** Throws the string rule's 400 for the first bad string of `value`. */
export function refuseUnstorableText(value: unknown, root = ''): void {
  const field = findUnstorableText(value, root);
  if (field !== undefined) throw unstorableTextError(field);
}
