import { ErrorCode, ErrorDetail } from './api-error';

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
  [extra: string]: unknown;
}

/**
 * What a handler returns when it wants to set the message or add `meta`
 * beside a list; a bare value is wrapped with the route's message.
 */
export class ApiResult<T> {
  constructor(
    readonly data: T,
    readonly message?: string,
    readonly meta?: Record<string, unknown>,
    /** Answer status when it differs from the route's default (e.g. a replay answering 200). */
    readonly status?: number,
    readonly headers?: Record<string, string>,
  ) {}
}

/** The body of a successful answer; also what routes that write their own bytes send. */
export function successBody(
  data: unknown,
  message: string,
  meta?: Record<string, unknown>,
): { status: true; message: string; data: unknown; meta?: Record<string, unknown> } {
  return { status: true, message, data: data ?? null, ...(meta ? { meta } : {}) };
}

export interface ErrorBody {
  status: false;
  message: string;
  error: { code: ErrorCode; details: ErrorDetail[] };
}

export function errorBody(
  code: ErrorCode,
  message: string,
  details: ErrorDetail[] = [],
): ErrorBody {
  return { status: false, message, error: { code, details } };
}

export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) };
}
