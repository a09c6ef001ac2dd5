import { randomBytes } from 'node:crypto';
import { isUuid } from '../common/uuid';

/**
 * The only types an upload may have. SVG and HTML are left out on
 * purpose: both can carry script and would be served from our own origin.
 * The extensions are the ones a key of that type may end with; the first is
 * the one added when a file name has none of them.
 */
export const UPLOAD_TYPES = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
} as const;

export type UploadType = keyof typeof UPLOAD_TYPES;

export const ALLOWED_UPLOAD_TYPES = Object.keys(UPLOAD_TYPES) as UploadType[];

export function isUploadType(value: string): value is UploadType {
  return Object.prototype.hasOwnProperty.call(UPLOAD_TYPES, value);
}

/** `expires_in` is clamped into this range, never refused for being out of it. */
export const MIN_EXPIRES_IN = 60;
export const MAX_EXPIRES_IN = 3600;
export const DEFAULT_EXPIRES_IN = 900;

export function clampExpiresIn(value: number | undefined): number {
  if (value === undefined) return DEFAULT_EXPIRES_IN;
  return Math.min(MAX_EXPIRES_IN, Math.max(MIN_EXPIRES_IN, Math.trunc(value)));
}

/** One path segment of an object key: no leading dot, so no `.`, `..` or hidden names. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const MAX_NAME_LENGTH = 100;

export const MAX_DIRECTORY_SEGMENTS = 8;
export const MAX_DIRECTORY_LENGTH = 255;

/**
 * The grammar `directory` must follow: relative (no leading `/`), no
 * `..`, no backslash, segments of safe characters. Enforced by the DTO.
 */
export const DIRECTORY_PATTERN = new RegExp(
  `^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}(/[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}){0,${
    MAX_DIRECTORY_SEGMENTS - 1
  }}/?$`,
);

/**
 * A file name reduced to safe characters: the last path part only,
 * accents folded, anything outside `A-Z a-z 0-9 . _ -` turned into `-`, no
 * leading dot, at most 100 characters, and an extension that matches the
 * declared type (added when missing or different, so `x.html` declared as
 * PNG is stored as `x.html.png`).
 */
export function sanitizeFileName(fileName: string, type: UploadType): string {
  const lastPart = fileName.split(/[/\\]/).pop() ?? '';
  const extensions: readonly string[] = UPLOAD_TYPES[type];
  const dot = lastPart.lastIndexOf('.');
  const given = dot > 0 ? lastPart.slice(dot + 1).toLowerCase() : '';
  const keepsExtension = extensions.includes(given);
  const extension = keepsExtension ? given : extensions[0];
  const base = cleanNamePart(keepsExtension ? lastPart.slice(0, dot) : lastPart)
    .slice(0, MAX_NAME_LENGTH - extension.length - 1)
    .replace(/[.-]+$/, '');
  return `${base || 'file'}.${extension}`;
}

function cleanNamePart(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/[.-]+$/, '');
}

export type DirectoryResult =
  { ok: true; segments: string[] } | { ok: false; reason: 'other-user'; uuid: string };

/**
 * The segments of an already well-formed `directory` (see DIRECTORY_PATTERN)
 * for this caller. A segment that is another user's uuid is refused (403);
 * the caller's own uuid is dropped, because every key starts with it anyway.
 */
export function resolveDirectory(directory: string | undefined, userUuid: string): DirectoryResult {
  const own = userUuid.toLowerCase();
  const segments = (directory ?? '').split('/').filter(Boolean);
  const kept: string[] = [];
  for (const segment of segments) {
    if (isUuid(segment)) {
      if (segment.toLowerCase() !== own) return { ok: false, reason: 'other-user', uuid: segment };
      continue;
    }
    kept.push(segment);
  }
  return { ok: true, segments: kept };
}

/**
 * `<user uuid>/<directory...>/<random>-<name>`. The random part (96 bits)
 * means two uploads never share a key, so nothing is ever overwritten.
 */
export function buildObjectKey(userUuid: string, directory: string[], safeName: string): string {
  const random = randomBytes(12).toString('hex');
  return [userUuid.toLowerCase(), ...directory, `${random}-${safeName}`].join('/');
}

/**
 * Whether a string is a key this service could have issued: the owner's
 * uuid, then safe segments, the last with an allowed extension. Everything
 * that reads or writes by key checks this first, so no path escapes storage.
 */
export function isObjectKey(key: string): boolean {
  if (key.length > 1024) return false;
  const segments = key.split('/');
  if (segments.length < 2 || segments.length > MAX_DIRECTORY_SEGMENTS + 2) return false;
  if (!isUuid(segments[0])) return false;
  if (!segments.every((segment) => SEGMENT.test(segment))) return false;
  return uploadTypeOfKey(key) !== undefined;
}

/** The type a key's extension stands for (keys are built with a matching one). */
export function uploadTypeOfKey(key: string): UploadType | undefined {
  const dot = key.lastIndexOf('.');
  if (dot < 0 || dot < key.lastIndexOf('/')) return undefined;
  const extension = key.slice(dot + 1).toLowerCase();
  return ALLOWED_UPLOAD_TYPES.find((type) =>
    (UPLOAD_TYPES[type] as readonly string[]).includes(extension),
  );
}

/** Whether the key lives under this user's uuid. */
export function isKeyOwnedBy(key: string, userUuid: string): boolean {
  return key.split('/')[0].toLowerCase() === userUuid.toLowerCase();
}

/** A key as a URL path: each segment percent-encoded. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/**
 * The key a URL names when it starts with `base` (same origin, path below
 * base's path), else undefined. Query and fragment are not part of the key.
 */
export function keyUnderBase(url: string, base: string): string | undefined {
  let parsed: URL;
  let root: URL;
  try {
    parsed = new URL(url);
    root = new URL(base.endsWith('/') ? base : `${base}/`);
  } catch {
    return undefined;
  }
  if (parsed.origin !== root.origin || !parsed.pathname.startsWith(root.pathname)) return undefined;
  try {
    return parsed.pathname.slice(root.pathname.length).split('/').map(decodeURIComponent).join('/');
  } catch {
    // A malformed escape: it still points into our storage, at nothing valid.
    return '';
  }
}
